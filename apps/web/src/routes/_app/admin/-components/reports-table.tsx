// Reports about rooms with what can be done about each: dismiss it, hide the room from the square, stop the room,
// or disable its owner, each in a dialog that asks why (the audit log keeps it). Used by the moderation queue and
// the user page.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatDateTime } from '../../../../lib/format';
import { trpcClient } from '../../../../lib/trpc';
import { RoomStateBadge } from '../../-components/room-state-badge';
import { type TAdminReport, type TReportAction, useAdminMutation, useFailureText } from './admin-api';
import { useAdminForm } from './admin-form';
import { reportActionLabel } from './admin-ui';
import { column, DataTable, type TDataColumn, type TMoreRows } from './data-table';
import { FormDialog } from './form-dialog';
import { ReasonField } from './reason-field';
import { ZReasonForm } from './validation';

export function ReportsTable({
  reports,
  showOwner = true,
  label,
  more,
}: {
  reports: TAdminReport[];
  showOwner?: boolean;
  /** The moderation queue is read a page at a time. */
  more?: TMoreRows;
  /** The table's name for screen readers; "Reports" unless the page says whose. */
  label?: string;
}) {
  const { i18n, t } = useLingui();
  const [resolving, setResolving] = useState<{ report: TAdminReport; action: TReportAction } | null>(null);
  const columns: TDataColumn<TAdminReport>[] = [
    column({
      id: 'room',
      header: <Trans>Room</Trans>,
      cell: (report) => (
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
      ),
    }),
    ...(showOwner
      ? [
          column<TAdminReport>({
            id: 'owner',
            header: <Trans>Owner</Trans>,
            cell: (report) =>
              report.roomOwner ? (
                <Link
                  to="/admin/users/$userId"
                  params={{ userId: report.roomOwner.id }}
                  className="hover:underline"
                >
                  {report.roomOwner.email}
                </Link>
              ) : (
                '—'
              ),
          }),
        ]
      : []),
    column({
      id: 'reason',
      header: <Trans>Reason</Trans>,
      cellClassName: 'max-w-xs whitespace-pre-wrap break-words',
      cell: (report) => report.reason,
    }),
    column({
      id: 'reporter',
      header: <Trans>Reporter</Trans>,
      cell: (report) => report.reporter ?? <Trans>guest</Trans>,
    }),
    column({
      id: 'ip',
      header: <Trans>IP</Trans>,
      className: 'max-lg:hidden',
      cellClassName: 'font-mono text-xs',
      cell: (report) => report.reporterIp,
    }),
    column({
      id: 'time',
      header: <Trans>Time</Trans>,
      cellClassName: 'whitespace-nowrap',
      cell: (report) => formatDateTime(report.createdAt),
    }),
    column({
      id: 'resolution',
      header: <Trans>Resolution</Trans>,
      cell: (report) =>
        report.resolution ? (
          <div className="flex flex-col gap-0.5">
            <Badge variant="secondary" data-testid="report-resolution" data-resolution={report.resolution}>
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
        ),
    }),
    column({
      id: 'actions',
      cell: (report) =>
        report.resolution ? null : (
          <div className="flex flex-wrap justify-end gap-1">
            <Button size="sm" variant="outline" onClick={() => setResolving({ report, action: 'dismiss' })}>
              <Trans>Dismiss</Trans>
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={report.roomId === null}
              onClick={() => setResolving({ report, action: 'hide' })}
            >
              <Trans>Hide from square</Trans>
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={report.roomId === null}
              onClick={() => setResolving({ report, action: 'stop' })}
            >
              <Trans>Stop room</Trans>
            </Button>
            <Button
              size="sm"
              variant="destructive"
              disabled={report.roomOwner === null}
              onClick={() => setResolving({ report, action: 'disableOwner' })}
            >
              <Trans>Disable owner</Trans>
            </Button>
          </div>
        ),
    }),
  ];

  return (
    <>
      <DataTable
        testId="admin-reports"
        label={label ?? t`Reports`}
        columns={columns}
        rows={reports}
        rowId={(report) => report.id}
        rowProps={(report) => ({ 'data-testid': 'admin-report-row', 'data-report-id': report.id })}
        empty={<Trans>No reports.</Trans>}
        more={more}
      />
      {resolving ? (
        <ResolveReportDialog
          key={`${resolving.report.id}-${resolving.action}`}
          report={resolving.report}
          action={resolving.action}
          onClose={() => setResolving(null)}
        />
      ) : null}
    </>
  );
}

const RESOLVE_ERROR_ID = 'resolve-report-error';

/** What resolving the report does, said before it is done, and why, for the audit log. */
function ResolveReportDialog({
  report,
  action,
  onClose,
}: {
  report: TAdminReport;
  action: TReportAction;
  onClose: () => void;
}) {
  const { i18n } = useLingui();
  const { form, invalid } = useAdminForm(ZReasonForm, { reason: '' });
  const resolve = useAdminMutation(
    (why: string) => trpcClient.admin.reports.resolve.mutate({ reportId: report.id, action, reason: why }),
    {
      success: () => i18n._(msg`Report resolved: ${reportActionLabel(i18n, action)}`),
      toastFailure: false,
      onSuccess: onClose,
    },
  );
  const serverError = useFailureText(resolve.error);
  const ownerEmail = report.roomOwner?.email ?? '';
  const roomName = report.roomName;
  const texts = {
    dismiss: {
      title: <Trans>Dismiss the report?</Trans>,
      description: <Trans>The report is closed; “{roomName}” stays as it is.</Trans>,
      submit: <Trans>Dismiss</Trans>,
    },
    hide: {
      title: <Trans>Hide the room from the square?</Trans>,
      description: (
        <Trans>“{roomName}” no longer shows in the public square; its owner’s own setting is kept.</Trans>
      ),
      submit: <Trans>Hide from square</Trans>,
    },
    stop: {
      title: <Trans>Stop the room?</Trans>,
      description: <Trans>Everyone in “{roomName}” is disconnected and the browser is closed.</Trans>,
      submit: <Trans>Stop room</Trans>,
    },
    disableOwner: {
      title: <Trans>Disable the room’s owner?</Trans>,
      description: (
        <Trans>
          {ownerEmail} is signed out everywhere, cannot sign in, and their running rooms are stopped.
        </Trans>
      ),
      submit: <Trans>Disable owner</Trans>,
    },
  }[action];
  return (
    <FormDialog
      open
      destructive={action === 'stop' || action === 'disableOwner'}
      testId="resolve-report-dialog"
      title={texts.title}
      description={texts.description}
      submitLabel={texts.submit}
      pending={resolve.isPending}
      error={invalid?.text ?? serverError}
      errorId={RESOLVE_ERROR_ID}
      onSubmit={form.handleSubmit(({ reason }) => resolve.mutate(reason))}
      onClose={onClose}
    >
      <ReasonField
        id="resolve-report-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={RESOLVE_ERROR_ID}
      />
    </FormDialog>
  );
}
