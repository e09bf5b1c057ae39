// Knocking in the room page: the knocker's wait ("waiting to be let in"), and for the owner and the members the
// owner trusts, who knocks ("X wants to join": Let in, Turn away); the owner also chooses who else may answer.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TClientMessageInput, TMember } from '@rooms/api/room-protocol';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { Checkbox } from '@rooms/ui/checkbox';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { TooltipProvider } from '@rooms/ui/tooltip';
import { TruncatedText } from '@rooms/ui/truncated-text';
import { DoorOpenIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { StandalonePage } from '../../../components/standalone-page';
import type { TKnockState } from '../../../lib/room/knock-state';

/** The knocker's page while nobody has answered yet. */
export function KnockWaiting({ roomName, action }: { roomName: string; action: ReactNode }) {
  return (
    <StandalonePage>
      <Card className="mx-auto w-full max-w-md" data-testid="knock-waiting">
        <CardHeader>
          <CardTitle className="flex min-w-0 items-center gap-2">
            <DoorOpenIcon className="size-4 shrink-0" />
            <span className="wrap-anywhere">{roomName}</span>
          </CardTitle>
          <CardDescription>
            <Trans>You knocked. Please wait: someone in the room will let you in, or not.</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex items-center justify-between gap-2">
          <Spinner />
          {action}
        </CardContent>
      </Card>
    </StandalonePage>
  );
}

/** Who knocks, for those who may answer; the owner's choice of who else may answer. */
export function KnockRequests({
  knock,
  members,
  you,
  send,
}: {
  knock: TKnockState;
  members: TMember[];
  you: string | null;
  send: (message: TClientMessageInput) => boolean;
}) {
  const { t } = useLingui();
  const wantsToJoin = (nickname: string) => t`${nickname} wants to join`;
  const isOwner = members.some((member) => member.id === you && member.isOwner);
  // One row per person: the trust follows the person, whichever seat it is given on.
  const others = members.filter(
    (member, index) =>
      !member.isOwner && members.findIndex((other) => other.personId === member.personId) === index,
  );
  if (knock.knocks.length === 0 && !(isOwner && others.length > 0)) return null;
  return (
    <section className="grid min-w-0 gap-2 border-b p-2" data-testid="knock-panel" aria-label={t`Knocks`}>
      <TooltipProvider delayDuration={300}>
        {knock.knocks.length > 0 ? (
          <ul className="grid max-h-40 min-w-0 gap-1 overflow-y-auto">
            {knock.knocks.map((request) => (
              <li
                key={request.id}
                className="grid min-w-0 gap-1 rounded-md bg-primary/10 px-2 py-1.5 text-sm"
                data-testid="knock-request"
              >
                <span className="flex min-w-0 items-center gap-1.5">
                  <TruncatedText>{wantsToJoin(request.nickname)}</TruncatedText>
                  {request.isGuest ? <Badge variant="outline">{t`Guest`}</Badge> : null}
                </span>
                <span className="flex justify-end gap-1.5">
                  <Button
                    size="sm"
                    className="h-7 px-2 text-xs"
                    onClick={() => send({ type: 'knock/answer', knockId: request.id, admit: true })}
                    data-testid="knock-admit"
                  >
                    <Trans>Let in</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    className="h-7 px-2 text-xs"
                    onClick={() => send({ type: 'knock/answer', knockId: request.id, admit: false })}
                    data-testid="knock-refuse"
                  >
                    <Trans>Turn away</Trans>
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {isOwner && others.length > 0 ? (
          <details className="text-sm" data-testid="knock-trust">
            <summary className="cursor-pointer text-muted-foreground text-xs">
              <Trans>Who else may let people in</Trans>
            </summary>
            <ul className="mt-1 grid max-h-32 gap-1 overflow-y-auto">
              {others.map((member) => (
                <li key={member.id}>
                  <Label className="font-normal text-sm">
                    <Checkbox
                      checked={knock.trusted.includes(member.id)}
                      onCheckedChange={(checked) =>
                        send({ type: 'knock/trust', memberId: member.id, trusted: checked === true })
                      }
                      data-testid="knock-trust-member"
                    />
                    <TruncatedText>{member.nickname}</TruncatedText>
                  </Label>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </TooltipProvider>
    </section>
  );
}
