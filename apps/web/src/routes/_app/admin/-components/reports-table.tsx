// Reports about rooms with what can be done about each: dismiss it, hide the room from the square, stop the room,
// or disable its owner (the last two after a confirmation). Used by the moderation queue and the user page.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@rooms/ui/table';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { formatDateTime } from '../../../../lib/format';
import { trpcClient } from '../../../../lib/trpc';
import { RoomStateBadge } from '../../-components/room-state-badge';
import { type TAdminReport, type TReportAction, useAdminMutation } from './admin-api';
import { EmptyRow, reportActionLabel } from './admin-ui';

export function ReportsTable({
  reports,
  showOwner = true,
  label,
}: {
  reports: TAdminReport[];
  showOwner?: boolean;
  /** The table's name for screen readers; "Reports" unless the page says whose. */
  label?: string;
}) {
  const { i18n, t } = useLingui();
  const [confirming, setConfirming] = useState<{
    report: TAdminReport;
    action: 'stop' | 'disableOwner';
  } | null>(null);
  const resolve = useAdminMutation(
    (input: { reportId: string; action: TReportAction }) => trpcClient.admin.reports.resolve.mutate(input),
    { success: (_, input) => i18n._(msg`Report resolved: ${reportActionLabel(i18n, input.action)}`) },
  );
  const busy = (report: TAdminReport) => resolve.isPending && resolve.variables?.reportId === report.id;
  const columns = showOwner ? 8 : 7;
  const ownerEmail = confirming?.report.roomOwner?.email ?? '';
  const roomName = confirming?.report.roomName ?? '';

  return (
    <>
      <Table data-testid="admin-reports" aria-label={label ?? t`Reports`}>
        <TableHeader>
          <TableRow>
            <TableHead>
              <Trans>Room</Trans>
            </TableHead>
            {showOwner ? (
              <TableHead>
                <Trans>Owner</Trans>
              </TableHead>
            ) : null}
            <TableHead>
              <Trans>Reason</Trans>
            </TableHead>
            <TableHead>
              <Trans>Reporter</Trans>
            </TableHead>
            <TableHead className="max-lg:hidden">
              <Trans>IP</Trans>
            </TableHead>
            <TableHead>
              <Trans>Time</Trans>
            </TableHead>
            <TableHead>
              <Trans>Resolution</Trans>
            </TableHead>
            <TableHead />
          </TableRow>
        </TableHeader>
        <TableBody>
          {reports.length === 0 ? (
            <EmptyRow columns={columns}>
              <Trans>No reports.</Trans>
            </EmptyRow>
          ) : (
            reports.map((report) => (
              <TableRow key={report.id} data-testid="admin-report-row" data-report-id={report.id}>
                <TableCell>
                  <div className="flex flex-col gap-1">
                    <span className="font-medium">{report.roomName}</span>
                    <span className="flex flex-wrap gap-1">
                      {report.roomState ? <RoomStateBadge state={report.roomState} /> : null}
                      {report.roomId === null ? (
                        <Badge variant="outline">
                          <Trans>Deleted</Trans>
                        </Badge>
                      ) : null}
                      {report.roomHidden ? (
                        <Badge variant="secondary">
                          <Trans>Hidden</Trans>
                        </Badge>
                      ) : null}
                    </span>
                  </div>
                </TableCell>
                {showOwner ? (
                  <TableCell>
                    {report.roomOwner ? (
                      <Link
                        to="/admin/users/$userId"
                        params={{ userId: report.roomOwner.id }}
                        className="hover:underline"
                      >
                        {report.roomOwner.email}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                ) : null}
                <TableCell className="max-w-xs whitespace-pre-wrap break-words">{report.reason}</TableCell>
                <TableCell>{report.reporter ?? <Trans>guest</Trans>}</TableCell>
                <TableCell className="font-mono text-xs max-lg:hidden">{report.reporterIp}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDateTime(report.createdAt)}</TableCell>
                <TableCell>
                  {report.resolution ? (
                    <div className="flex flex-col gap-0.5">
                      <Badge
                        variant="secondary"
                        data-testid="report-resolution"
                        data-resolution={report.resolution}
                      >
                        {reportActionLabel(i18n, report.resolution)}
                      </Badge>
                      <span className="text-muted-foreground text-xs">
                        {report.resolvedBy ?? ''}
                        {report.resolvedAt ? ` · ${formatDateTime(report.resolvedAt)}` : ''}
                      </span>
                    </div>
                  ) : (
                    <Badge variant="warning">
                      <Trans>Open</Trans>
                    </Badge>
                  )}
                </TableCell>
                <TableCell>
                  {report.resolution ? null : (
                    <div className="flex flex-wrap justify-end gap-1">
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busy(report)}
                        onClick={() => resolve.mutate({ reportId: report.id, action: 'dismiss' })}
                      >
                        <Trans>Dismiss</Trans>
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busy(report) || report.roomId === null}
                        onClick={() => resolve.mutate({ reportId: report.id, action: 'hide' })}
                      >
                        <Trans>Hide from square</Trans>
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busy(report) || report.roomId === null}
                        onClick={() => setConfirming({ report, action: 'stop' })}
                      >
                        <Trans>Stop room</Trans>
                      </Button>
                      <Button
                        size="sm"
                        variant="destructive"
                        disabled={busy(report) || report.roomOwner === null}
                        onClick={() => setConfirming({ report, action: 'disableOwner' })}
                      >
                        <Trans>Disable owner</Trans>
                      </Button>
                    </div>
                  )}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={confirming !== null}
        destructive
        title={
          confirming?.action === 'disableOwner' ? (
            <Trans>Disable the room’s owner?</Trans>
          ) : (
            <Trans>Stop the room?</Trans>
          )
        }
        confirmLabel={
          confirming?.action === 'disableOwner' ? <Trans>Disable owner</Trans> : <Trans>Stop room</Trans>
        }
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) resolve.mutate({ reportId: confirming.report.id, action: confirming.action });
          setConfirming(null);
        }}
      >
        {confirming?.action === 'disableOwner' ? (
          <Trans>
            {ownerEmail} is signed out everywhere, cannot sign in, and their running rooms are stopped.
          </Trans>
        ) : (
          <Trans>Everyone in “{roomName}” is disconnected and the browser is closed.</Trans>
        )}
      </ConfirmDialog>
    </>
  );
}
