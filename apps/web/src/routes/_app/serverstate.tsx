// The server state page (/serverstate): each zone with the servers serving it, their capacity and load,
// and how long rooms took to start over the last hour. Polled every few seconds while the page is open.
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { TServerState, TServerView } from '@rooms/api/client';
import { Badge } from '@rooms/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { Progress } from '@rooms/ui/progress';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ServerIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { QueryView } from '../../components/query-view';
import { formatDateTime } from '../../lib/format';
import { translateServerText } from '../../lib/messages';
import { trpc } from '../../lib/trpc';
import { formatUptime } from './admin/-components/admin-ui';

/** Often enough to look live, rarely enough to cost nothing (the reading is a few counters). */
const REFRESH_MS = 5000;

export const Route = createFileRoute('/_app/serverstate')({
  staticData: { title: msg`Server state` },
  component: ServerStatePage,
});

function ServerStatePage() {
  const { i18n } = useLingui();
  const state = useQuery({
    ...trpc.server.getServerState.queryOptions(),
    refetchInterval: REFRESH_MS,
  });

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-semibold text-2xl">
          <Trans>Server state</Trans>
        </h1>
        {state.data && <UpdatedAt iso={state.data.updatedAt} />}
      </div>
      <QueryView query={state} failure={<Trans>Failed to retrieve the server state</Trans>}>
        {(data) =>
          data.regions.map((region) => (
            <section key={region.code} className="grid gap-3" data-testid={`region-${region.code}`}>
              <div className="flex flex-wrap items-baseline gap-x-3">
                <h2 className="font-semibold text-lg">{translateServerText(i18n, region.name)}</h2>
                <RunningRooms count={region.runningRooms} />
              </div>
              {region.description && (
                <p className="text-muted-foreground text-sm">
                  {translateServerText(i18n, region.description)}
                </p>
              )}
              {region.nodes.length === 0 ? (
                <p className="text-muted-foreground text-sm">
                  <Trans>No server serves this zone at the moment.</Trans>
                </p>
              ) : (
                <div className="grid gap-4 md:grid-cols-2">
                  {region.nodes.map((node, index) => (
                    // Servers have no name outside the admin view (their host stays private): listed in order.
                    <NodeCard key={node.host?.name ?? index} node={node} />
                  ))}
                </div>
              )}
            </section>
          ))
        }
      </QueryView>
      {state.data?.details && <AdminDetails details={state.data.details} />}
    </div>
  );
}

/** A server's rooms and start times; its host's name, uptime, CPU and memory when the viewer is an administrator. */
function NodeCard({ node }: { node: TServerView }) {
  const { i18n } = useLingui();
  const { host } = node;
  const roomShare = node.rooms.max === 0 ? 0 : (node.rooms.running / node.rooms.max) * 100;
  const full = node.rooms.running >= node.rooms.max;
  const latency = node.startLatency;
  const windowMinutes = latency.windowMinutes;
  const seconds = (ms: number | null) =>
    ms === null ? '–' : `${i18n.number(ms / 1000, { maximumFractionDigits: 1 })} s`;

  return (
    <Card data-testid="server-node">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ServerIcon className="size-4" />
          {host && <span className="truncate">{host.name}</span>}
          <Badge variant={full ? 'warning' : 'secondary'} className="ml-auto">
            {full ? <Trans>Full</Trans> : <Trans>Accepting rooms</Trans>}
          </Badge>
        </CardTitle>
        {host && <HostUptime startedAt={host.startedAt} />}
      </CardHeader>
      <CardContent className="grid gap-4">
        <Meter
          label={<Trans>Rooms</Trans>}
          value={roomShare}
          text={`${node.rooms.running} / ${node.rooms.max}`}
          testId="node-rooms"
        />
        {host && <HostLoad host={host} />}
        <div className="grid gap-1" data-testid="node-start-latency">
          <p className="font-medium text-sm">
            <Trans>Room start time, last {windowMinutes} minutes</Trans>
          </p>
          {latency.started === 0 && latency.failed === 0 ? (
            <p className="text-muted-foreground text-sm">
              <Trans>No room started in this period.</Trans>
            </p>
          ) : (
            <dl className="grid grid-cols-4 gap-2 text-sm">
              <Figure label={<Trans>Started</Trans>} value={String(latency.started)} />
              <Figure label={<Trans>Median</Trans>} value={seconds(latency.medianMs)} />
              <Figure label={<Trans>95th percentile</Trans>} value={seconds(latency.p95Ms)} />
              <Figure label={<Trans>Failed</Trans>} value={String(latency.failed)} />
            </dl>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

type THost = NonNullable<TServerView['host']>;

function HostUptime({ startedAt }: { startedAt: string }) {
  const upSince = formatDateTime(startedAt);
  return (
    <CardDescription>
      <Trans>Up since {upSince}</Trans>
    </CardDescription>
  );
}

function HostLoad({ host }: { host: THost }) {
  const { i18n } = useLingui();
  const memoryShare =
    host.memory.totalBytes === 0 ? 0 : (host.memory.usedBytes / host.memory.totalBytes) * 100;
  const cores = host.cpu.cores;
  return (
    <>
      <Meter
        label={<Trans>CPU ({cores} cores)</Trans>}
        value={host.cpu.percent}
        text={`${i18n.number(host.cpu.percent, { maximumFractionDigits: 0 })} %`}
        testId="node-cpu"
      />
      <Meter
        label={<Trans>Memory</Trans>}
        value={memoryShare}
        text={`${gigabytes(host.memory.usedBytes)} / ${gigabytes(host.memory.totalBytes)} GB`}
        testId="node-memory"
      />
    </>
  );
}

function UpdatedAt({ iso }: { iso: string }) {
  const time = new Date(iso).toLocaleTimeString();
  return (
    <p className="text-muted-foreground text-sm" data-testid="serverstate-updated">
      <Trans>Updated {time}</Trans>
    </p>
  );
}

function RunningRooms({ count }: { count: number }) {
  return (
    <span className="text-muted-foreground text-sm" data-testid="region-running">
      <Plural value={count} one="# room running" other="# rooms running" />
    </span>
  );
}

function gigabytes(bytes: number): string {
  return (bytes / 1024 ** 3).toFixed(1);
}

function Meter(props: { label: ReactNode; value: number; text: string; testId: string }) {
  const labelId = useId();
  return (
    <div className="grid gap-1.5" data-testid={props.testId}>
      <div className="flex justify-between text-sm">
        <span className="font-medium" id={labelId}>
          {props.label}
        </span>
        <span className="text-muted-foreground tabular-nums">{props.text}</span>
      </div>
      {/* The bar says what the line above it says: its label, and the figures rather than a bare percentage. */}
      <Progress
        aria-labelledby={labelId}
        getValueLabel={() => props.text}
        value={Math.min(100, props.value)}
        indicatorClassName={props.value >= 90 ? 'bg-destructive' : undefined}
      />
    </div>
  );
}

function Figure(props: { label: ReactNode; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground text-xs">{props.label}</dt>
      <dd className="font-medium tabular-nums">{props.value}</dd>
    </div>
  );
}

/** What only administrators get: this server process and each live room (the server leaves it out for others). */
function AdminDetails({ details }: { details: NonNullable<TServerState['details']> }) {
  const { i18n } = useLingui();
  return (
    <Card data-testid="server-details">
      <CardHeader>
        <CardTitle>
          <Trans>Details for administrators</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Server process: {gigabytes(details.process.rssBytes)} GB resident, up{' '}
            {formatUptime(i18n, details.process.uptimeSeconds)}
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {details.rooms.length === 0 ? (
          <p className="text-muted-foreground">
            <Trans>No room is running.</Trans>
          </p>
        ) : (
          details.rooms.map((room) => (
            <div
              key={room.id}
              className="flex flex-wrap items-baseline gap-x-3 gap-y-1"
              data-testid="server-room"
            >
              <span className="min-w-0 truncate font-medium">{room.name}</span>
              <span className="min-w-0 truncate text-muted-foreground">{room.owner.email}</span>
              <Badge variant="secondary">
                <Plural value={room.members} one="# member" other="# members" />
              </Badge>
              <span className="font-mono text-xs">
                {room.mediaPath ?? '—'}
                {room.fps === null ? '' : ` · ${i18n.number(room.fps, { maximumFractionDigits: 1 })} fps`}
              </span>
            </div>
          ))
        )}
        <Link to="/admin/rooms" className="text-primary text-sm hover:underline">
          <Trans>Running rooms</Trans>
        </Link>
      </CardContent>
    </Card>
  );
}
