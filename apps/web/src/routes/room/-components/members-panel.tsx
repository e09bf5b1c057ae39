// Who is in the room, who drives, and the raise-hand queue, with the control actions the rules allow:
// request/cancel for everyone, release and hand-over for the controller, take-back, kick and ban for the owner;
// none while this participant is not in the room (connecting, or the room is away).
// Hand-over, kick and ban sit in each row's menu so a narrow panel keeps names and the "In control" pill in view;
// a member who asked for control also gets a Give control button in their row, and a toast (use-control-requests).
import { Trans, useLingui } from '@lingui/react/macro';
import type { TClientMessageInput, TMember } from '@rooms/api/room-protocol';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@rooms/ui/dropdown-menu';
import { TooltipProvider } from '@rooms/ui/tooltip';
import { TruncatedText } from '@rooms/ui/truncated-text';
import {
  BanIcon,
  BellIcon,
  BellOffIcon,
  CrownIcon,
  EllipsisVerticalIcon,
  HandIcon,
  MousePointer2Icon,
  UserXIcon,
} from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { useControlRequests } from '../../../hooks/use-control-requests';

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
  const { canGrant, sound, setSound } = useControlRequests({ members, you, controllerId, queue, send });
  const controller = members.find((member) => member.id === controllerId);

  // Whom this participant just gave control to. The hand-over takes away the Give control button (and, for a
  // driver who is not the owner, the row's menu) that had the focus, which would drop it on the page's body:
  // it goes to the row's menu button if it stays, else to this participant's own control button.
  const handedTo = useRef<string | null>(null);
  const rows = useRef<HTMLUListElement>(null);
  const ownControl = useRef<HTMLButtonElement>(null);
  const give = (memberId: string) => {
    handedTo.current = memberId;
    send({ type: 'control/grant', memberId });
  };
  useLayoutEffect(() => {
    const memberId = handedTo.current;
    if (memberId === null) return;
    const active = document.activeElement;
    if (active && active !== document.body) {
      if (controllerId === memberId) handedTo.current = null;
      return;
    }
    handedTo.current = null;
    const row = rows.current?.querySelector(`[data-member-id="${CSS.escape(memberId)}"]`);
    const target = row?.querySelector<HTMLElement>('[data-testid="member-actions"]') ?? ownControl.current;
    target?.focus();
  });

  return (
    <section className="grid min-w-0 gap-2 border-b p-3" data-testid="members-panel" aria-label={t`Members`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-medium text-sm">
          <Trans>Members ({members.length})</Trans>
        </h2>
        <div className="flex items-center gap-1.5">
          {canGrant ? (
            <Button
              size="icon"
              variant="ghost"
              className="size-8"
              aria-pressed={sound}
              aria-label={t`Chime when someone asks for control`}
              title={t`Chime when someone asks for control`}
              onClick={() => setSound(!sound)}
              data-testid="control-request-sound"
            >
              {sound ? <BellIcon /> : <BellOffIcon />}
            </Button>
          ) : null}
          {!me ? null : controlling ? (
            <Button
              ref={ownControl}
              size="sm"
              variant="outline"
              onClick={() => send({ type: 'control/release' })}
              data-testid="control-release"
            >
              <Trans>Release control</Trans>
            </Button>
          ) : waiting ? (
            <Button
              ref={ownControl}
              size="sm"
              variant="outline"
              onClick={() => send({ type: 'control/cancel' })}
              data-testid="control-cancel"
            >
              <Trans>Cancel request</Trans>
            </Button>
          ) : isOwner ? (
            // The owner never queues: they take control straight back.
            <Button
              ref={ownControl}
              size="sm"
              onClick={() => send({ type: 'control/take' })}
              data-testid="control-take"
            >
              <Trans>Take control</Trans>
            </Button>
          ) : (
            <Button
              ref={ownControl}
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
      <p className="wrap-anywhere text-muted-foreground text-xs" data-testid="controller-name">
        {controller ? t`${controller.nickname} is in control` : t`Nobody is in control`}
      </p>
      <TooltipProvider delayDuration={300}>
        <ul ref={rows} className="grid max-h-56 min-w-0 gap-1 overflow-y-auto">
          {members.map((member) => {
            const place = queue.indexOf(member.id);
            const isController = member.id === controllerId;
            const grantable = canGrant && !isController && member.id !== you;
            const removable = isOwner && !member.isOwner;
            return (
              <li
                key={member.id}
                className="flex min-h-8 min-w-0 items-center gap-1.5 rounded-md px-1.5 text-sm hover:bg-accent/40"
                data-testid="member"
                data-member-id={member.id}
                data-controller={isController}
              >
                <TruncatedText className="flex-1" data-testid="member-name">
                  {member.nickname}
                </TruncatedText>
                {member.id === you ? (
                  <span className="shrink-0 text-muted-foreground text-xs">{t`(you)`}</span>
                ) : null}
                {member.isOwner ? (
                  <CrownIcon className="size-3.5 shrink-0 text-vip" aria-label={t`Owner`} />
                ) : null}
                {member.isGuest ? <Badge variant="outline">{t`Guest`}</Badge> : null}
                {isController ? (
                  <Badge data-testid="member-in-control">
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
                {grantable && place >= 0 ? (
                  // The answer to a raised hand stays one click away; any other hand-over is in the menu.
                  <Button
                    size="sm"
                    variant="ghost"
                    className="h-7 px-2 text-xs"
                    onClick={() => give(member.id)}
                    data-testid="control-grant"
                  >
                    <Trans>Give control</Trans>
                  </Button>
                ) : null}
                {grantable || removable ? (
                  <DropdownMenu>
                    <DropdownMenuTrigger asChild>
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-7"
                        aria-label={t`Actions for ${member.nickname}`}
                        data-testid="member-actions"
                      >
                        <EllipsisVerticalIcon />
                      </Button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent align="end" className="w-56" data-testid="member-actions-menu">
                      <DropdownMenuLabel className="wrap-anywhere font-medium">
                        {member.nickname}
                      </DropdownMenuLabel>
                      <DropdownMenuSeparator />
                      {grantable ? (
                        <DropdownMenuItem onSelect={() => give(member.id)} data-testid="member-grant">
                          <MousePointer2Icon />
                          <Trans>Give control</Trans>
                        </DropdownMenuItem>
                      ) : null}
                      {removable ? (
                        <DropdownMenuItem
                          className="wrap-anywhere text-destructive focus:text-destructive"
                          onSelect={() => send({ type: 'member/kick', memberId: member.id })}
                          data-testid="member-kick"
                        >
                          <UserXIcon />
                          {t`Remove ${member.nickname} from the room`}
                        </DropdownMenuItem>
                      ) : null}
                      {removable ? (
                        <DropdownMenuItem
                          className="wrap-anywhere text-destructive focus:text-destructive"
                          onSelect={() => send({ type: 'member/ban', memberId: member.id })}
                          data-testid="member-ban"
                        >
                          <BanIcon />
                          {t`Ban ${member.nickname} until the room stops`}
                        </DropdownMenuItem>
                      ) : null}
                    </DropdownMenuContent>
                  </DropdownMenu>
                ) : null}
              </li>
            );
          })}
        </ul>
      </TooltipProvider>
    </section>
  );
}
