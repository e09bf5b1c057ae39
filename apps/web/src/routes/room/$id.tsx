// The room page (outside the layout): the owner's rooms and public rooms, for logged-in users. A room shared
// with a password is entered through its share link instead, where the password is asked for.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { StandaloneLoading } from '../../components/standalone-page';
import { useFailureToast } from '../../hooks/use-failure-toast';
import { requireLogin } from '../../lib/guard';
import { describeError } from '../../lib/messages';
import { trpc } from '../../lib/trpc';
import { StartRoomButton } from './-components/room-away';
import { Notice, RoomExperience, type TRoomHome } from './-components/room-experience';

export const Route = createFileRoute('/room/$id')({
  beforeLoad: requireLogin,
  staticData: { title: msg`Room` },
  component: RoomPage,
});

const HOME: TRoomHome = { to: '/dashboard', label: msg`Back to the dashboard` };

function RoomPage() {
  const { id } = Route.useParams();
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const config = useQuery({
    ...trpc.room.getRoomEntry.queryOptions({ id }),
    // A room that asks for its share password says so in its answer (null here), not with a 403 in the console.
    select: (entry) => (entry.passwordRequired ? null : entry.room),
    staleTime: 0,
    retry: false,
    // A room that is not running yet is watched, and entered as soon as it runs.
    refetchInterval: (query) => {
      const entry = query.state.data;
      return entry && !entry.passwordRequired && entry.room.state !== 'running' ? 3000 : false;
    },
  });
  const needsPassword = config.data === null;

  // Someone else's room with a share password: its share page asks for it.
  useEffect(() => {
    if (needsPassword) void navigate({ to: '/share/room/$id', params: { id }, replace: true });
  }, [needsPassword, id, navigate]);
  useFailureToast(needsPassword ? null : config.error, t`Failed to retrieve room configuration`);

  if (config.isPending || config.data === null) {
    return <StandaloneLoading />;
  }
  if (config.isError) {
    return (
      <Notice title={<Trans>Failed to retrieve room configuration</Trans>} home={HOME}>
        {describeError(i18n, config.error).text}
      </Notice>
    );
  }
  if (config.data.state === 'starting') {
    // Just started (the dashboard's "Create and start", another tab): entered as soon as it runs.
    return (
      <Notice title={config.data.name} home={HOME}>
        <span data-testid="room-starting">
          <Trans>The room is starting. You will be let in as soon as it runs.</Trans>
        </span>
      </Notice>
    );
  }
  if (config.data.state !== 'running') {
    return (
      <Notice
        title={config.data.name}
        home={HOME}
        action={
          config.data.isOwner ? (
            <StartRoomButton roomId={id} onStarted={() => void config.refetch()} />
          ) : undefined
        }
      >
        {config.data.isOwner ? (
          <Trans>This room is not running.</Trans>
        ) : (
          <Trans>This room is not running. You will be let in as soon as its owner starts it.</Trans>
        )}
      </Notice>
    );
  }
  return <RoomExperience room={config.data} home={HOME} onLeave={() => void navigate({ to: HOME.to })} />;
}
