// Who is in the room, who drives, and the raise-hand queue, with the control actions the rules allow:
// request/cancel for everyone, release and hand-over for the controller, take-back, remove and ban for the owner;
// none while this participant is not in the room (connecting, or the room is away).
// One row per person: an account on a laptop and a phone is one row saying '2 devices' (lib/room/people.ts), and
// the count in the heading counts people. Hand-over, remove and ban sit in each row's menu so a narrow panel keeps
// names and the "In control" pill in view; remove and ban ask first, naming the person. A member who asked for
// control also gets a Give control button in their row, and a toast (use-control-requests). The owner also sees
// whom they removed, each with Let back in.
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { TClientMessageInput, TMember, TRemovedMember } from '@rooms/api/room-protocol';
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
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useControlRequests } from '../../../hooks/use-control-requests';
import { peopleOf, seatToGrant, type TPerson } from '../../../lib/room/people';
import { RemovedMembers } from './removed-members';

export function MembersPanel({
  members,
  removed,
  you,
  controllerId,
  queue,
  send,
  voice,
}: {
  members: TMember[];
  /** Whom the owner removed (the owner's page only). */
  removed: TRemovedMember[];
  you: string | null;
  controllerId: string | null;
  queue: string[];
  send: (message: TClientMessageInput) => boolean;
  /** Voice in each person's row: talking, mute for me, the owner's mute for everyone (voice-controls.tsx). */
  voice?: (person: TPerson) => ReactNode;
}) {
  const { t } = useLingui();
  const me = members.find((member) => member.id === you);
  const isOwner = me?.isOwner ?? false;
  const controlling = controllerId !== null && controllerId === you;
  const waiting = you !== null && queue.includes(you);
  const { canGrant, sound, setSound } = useControlRequests({ members, you, controllerId, queue, send });
  const controller = members.find((member) => member.id === controllerId);
  const people = peopleOf(members, you);
  /** A removal or ban waiting for the owner's yes. */
  const [asking, setAsking] = useState<{ kind: 'kick' | 'ban'; person: TPerson } | null>(null);

  // Whom this participant just gave control to. The hand-over takes away the Give control button (and, for a
  // driver who is not the owner, the row's menu) that had the focus, which would drop it on the page's body:
  // it goes to the row's menu button if it stays, else to this participant's own control button.
  const handedTo = useRef<{ personId: string; memberId: string } | null>(null);
  const rows = useRef<HTMLUListElement>(null);
  const ownControl = useRef<HTMLButtonElement>(null);
  const give = (person: TPerson) => {
    const memberId = seatToGrant(person, queue);
    handedTo.current = { personId: person.personId, memberId };
    send({ type: 'control/grant', memberId });
  };
  useLayoutEffect(() => {
    const handed = handedTo.current;
    if (handed === null) return;
    const active = document.activeElement;
    if (active && active !== document.body) {
      if (controllerId === handed.memberId) handedTo.current = null;
      return;
    }
    handedTo.current = null;
    const row = rows.current?.querySelector(`[data-person-id="${CSS.escape(handed.personId)}"]`);
    const target = row?.querySelector<HTMLElement>('[data-testid="member-actions"]') ?? ownControl.current;
    target?.focus();
  });

  const confirmRemoval = () => {
    const target = asking?.person.seats[0];
    // The room takes every seat of the person: one of them is enough to name them.
    if (asking && target)
      send({ type: asking.kind === 'kick' ? 'member/kick' : 'member/ban', memberId: target.id });
    setAsking(null);
  };
  const askingName = asking?.person.nickname ?? '';

  return (
    <section className="grid min-w-0 gap-2 border-b p-3" data-testid="members-panel" aria-label={t`Members`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-medium text-sm" data-testid="members-count" data-count={people.length}>
          <Trans>Members ({people.length})</Trans>
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
          {people.map((person) => {
            const places = person.seats.map((seat) => queue.indexOf(seat.id)).filter((place) => place >= 0);
            const place = places.length > 0 ? Math.min(...places) : -1;
            const isController = person.seats.some((seat) => seat.id === controllerId);
            // Never one's own row: one's other device is oneself (the owner's is the owner's too).
            const grantable = canGrant && !isController && !person.isYou;
            const removable = isOwner && !person.isOwner && !person.isYou;
            const devices = person.seats.length;
            return (
              <li
                key={person.personId}
                className="flex min-h-8 min-w-0 items-center gap-1.5 rounded-md px-1.5 text-sm hover:bg-accent/40"
                data-testid="member"
                data-person-id={person.personId}
                data-member-id={person.seats[0]?.id}
                data-controller={isController}
              >
                <TruncatedText className="flex-1" data-testid="member-name">
                  {person.nickname}
                </TruncatedText>
                {voice?.(person)}
                {person.isYou ? (
                  <span className="shrink-0 text-muted-foreground text-xs">{t`(you)`}</span>
                ) : null}
                {devices > 1 ? (
                  <span className="shrink-0 text-muted-foreground text-xs" data-testid="member-devices">
                    <Plural value={devices} one="(# device)" other="(# devices)" />
                  </span>
                ) : null}
                {person.isOwner ? (
                  <CrownIcon className="size-3.5 shrink-0 text-vip" aria-label={t`Owner`} />
                ) : null}
                {person.isGuest ? <Badge variant="outline">{t`Guest`}</Badge> : null}
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
                    onClick={() => give(person)}
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
                        aria-label={t`Actions for ${person.nickname}`}
                        data-testid="member-actions"
                      >
                        <EllipsisVerticalIcon />
                      </Button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent align="end" className="w-56" data-testid="member-actions-menu">
                      <DropdownMenuLabel className="wrap-anywhere font-medium">
                        {person.nickname}
                      </DropdownMenuLabel>
                      <DropdownMenuSeparator />
                      {grantable ? (
                        <DropdownMenuItem onSelect={() => give(person)} data-testid="member-grant">
                          <MousePointer2Icon />
                          <Trans>Give control</Trans>
                        </DropdownMenuItem>
                      ) : null}
                      {removable ? (
                        <DropdownMenuItem
                          className="wrap-anywhere text-destructive focus:text-destructive"
                          onSelect={() => setAsking({ kind: 'kick', person })}
                          data-testid="member-kick"
                        >
                          <UserXIcon />
                          {t`Remove ${person.nickname} from the room`}
                        </DropdownMenuItem>
                      ) : null}
                      {removable ? (
                        <DropdownMenuItem
                          className="wrap-anywhere text-destructive focus:text-destructive"
                          onSelect={() => setAsking({ kind: 'ban', person })}
                          data-testid="member-ban"
                        >
                          <BanIcon />
                          {t`Ban ${person.nickname} until the room stops`}
                        </DropdownMenuItem>
                      ) : null}
                    </DropdownMenuContent>
                  </DropdownMenu>
                ) : null}
              </li>
            );
          })}
        </ul>
        {isOwner && removed.length > 0 ? (
          <RemovedMembers
            removed={removed}
            onReadmit={(removalId) => send({ type: 'member/readmit', removalId })}
          />
        ) : null}
      </TooltipProvider>
      <ConfirmDialog
        open={asking !== null}
        title={
          asking?.kind === 'ban' ? (
            <Trans>Ban {askingName} until the room stops?</Trans>
          ) : (
            <Trans>Remove {askingName} from the room?</Trans>
          )
        }
        confirmLabel={asking?.kind === 'ban' ? <Trans>Ban</Trans> : <Trans>Remove</Trans>}
        destructive
        testId={asking?.kind === 'ban' ? 'member-ban-dialog' : 'member-kick-dialog'}
        onCancel={() => setAsking(null)}
        onConfirm={confirmRemoval}
      >
        {asking?.kind === 'ban' ? (
          <Trans>
            {askingName} leaves the room on every device and is kept out until the room stops (a guest also
            from other browsers at the same address). A ban cannot be undone.
          </Trans>
        ) : (
          <Trans>
            {askingName} leaves the room on every device and cannot come back while the room runs, unless you
            let them back in from the list of removed people.
          </Trans>
        )}
      </ConfirmDialog>
    </section>
  );
}
