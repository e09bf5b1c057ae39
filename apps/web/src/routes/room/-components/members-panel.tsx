// Who is in the room, who drives, and the raise-hand queue, with the control actions the rules allow:
// request/cancel for everyone, release and hand-over for the controller, take-back, kick and ban for the owner.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TClientMessageInput, TMember } from '@rooms/api/room-protocol';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { BanIcon, CrownIcon, HandIcon, MousePointer2Icon, UserXIcon } from 'lucide-react';

export function MembersPanel({
  members,
  you,
  controllerId,
  queue,
  send,
}: {
  members: TMember[];
  you: string | null;
  controllerId: string | null;
  queue: string[];
  send: (message: TClientMessageInput) => boolean;
}) {
  const { t } = useLingui();
  const me = members.find((member) => member.id === you);
  const isOwner = me?.isOwner ?? false;
  const controlling = controllerId !== null && controllerId === you;
  const waiting = you !== null && queue.includes(you);
  const canGrant = controlling || isOwner;
  const controller = members.find((member) => member.id === controllerId);

  return (
    <section className="grid gap-2 border-b p-3" data-testid="members-panel" aria-label={t`Members`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-medium text-sm">
          <Trans>Members ({members.length})</Trans>
        </h2>
        <div className="flex gap-1.5">
          {controlling ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() => send({ type: 'control/release' })}
              data-testid="control-release"
            >
              <Trans>Release control</Trans>
            </Button>
          ) : waiting ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() => send({ type: 'control/cancel' })}
              data-testid="control-cancel"
            >
              <Trans>Cancel request</Trans>
            </Button>
          ) : isOwner ? (
            // The owner never queues: they take control straight back.
            <Button size="sm" onClick={() => send({ type: 'control/take' })} data-testid="control-take">
              <Trans>Take control</Trans>
            </Button>
          ) : (
            <Button
              size="sm"
              variant="outline"
              onClick={() => send({ type: 'control/request' })}
              data-testid="control-request"
            >
              <HandIcon />
              <Trans>Request control</Trans>
            </Button>
          )}
        </div>
      </div>
      <p className="text-muted-foreground text-xs" data-testid="controller-name">
        {controller ? t`${controller.nickname} is in control` : t`Nobody is in control`}
      </p>
      <ul className="grid max-h-56 gap-1 overflow-y-auto">
        {members.map((member) => {
          const place = queue.indexOf(member.id);
          return (
            <li
              key={member.id}
              className="flex min-h-8 items-center gap-2 rounded-md px-1.5 text-sm hover:bg-accent/40"
              data-testid="member"
              data-controller={member.id === controllerId}
            >
              <span className="min-w-0 flex-1 truncate">
                {member.nickname}
                {member.id === you ? <span className="text-muted-foreground"> {t`(you)`}</span> : null}
              </span>
              {member.isOwner ? (
                <CrownIcon className="size-3.5 shrink-0 text-vip" aria-label={t`Owner`} />
              ) : null}
              {member.isGuest ? <Badge variant="outline">{t`Guest`}</Badge> : null}
              {member.id === controllerId ? (
                <Badge>
                  <MousePointer2Icon />
                  <Trans>In control</Trans>
                </Badge>
              ) : null}
              {place >= 0 ? (
                <Badge variant="warning" title={t`Waiting for control`}>
                  <HandIcon />
                  {place + 1}
                </Badge>
              ) : null}
              {canGrant && member.id !== controllerId && member.id !== you ? (
                <Button
                  size="sm"
                  variant="ghost"
                  className="h-7 px-2 text-xs"
                  onClick={() => send({ type: 'control/grant', memberId: member.id })}
                  data-testid="control-grant"
                >
                  <Trans>Give control</Trans>
                </Button>
              ) : null}
              {isOwner && !member.isOwner ? (
                <Button
                  size="icon"
                  variant="ghost"
                  className="size-7 text-destructive"
                  aria-label={t`Remove ${member.nickname} from the room`}
                  onClick={() => send({ type: 'member/kick', memberId: member.id })}
                  data-testid="member-kick"
                >
                  <UserXIcon />
                </Button>
              ) : null}
              {isOwner && !member.isOwner ? (
                <Button
                  size="icon"
                  variant="ghost"
                  className="size-7 text-destructive"
                  aria-label={t`Ban ${member.nickname} until the room stops`}
                  title={t`Ban ${member.nickname} until the room stops`}
                  onClick={() => send({ type: 'member/ban', memberId: member.id })}
                  data-testid="member-ban"
                >
                  <BanIcon />
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
