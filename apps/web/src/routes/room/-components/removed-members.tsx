// The people the owner removed from the room, shown to the owner under the members: each stays out (by account
// and browser) until the room stops, unless the owner lets them back in here.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TRemovedMember } from '@rooms/api/room-protocol';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { TruncatedText } from '@rooms/ui/truncated-text';
import { UndoIcon } from 'lucide-react';

export function RemovedMembers({
  removed,
  onReadmit,
}: {
  removed: TRemovedMember[];
  onReadmit: (removalId: string) => void;
}) {
  const { t } = useLingui();
  return (
    <div className="grid min-w-0 gap-1" data-testid="removed-members">
      <h3 className="font-medium text-muted-foreground text-xs">
        <Trans>Removed ({removed.length})</Trans>
      </h3>
      <ul className="grid max-h-32 min-w-0 gap-1 overflow-y-auto">
        {removed.map((person) => (
          <li
            key={person.id}
            className="flex min-h-8 min-w-0 items-center gap-1.5 rounded-md px-1.5 text-muted-foreground text-sm"
            data-testid="removed-member"
          >
            <TruncatedText className="flex-1">{person.nickname}</TruncatedText>
            {person.isGuest ? <Badge variant="outline">{t`Guest`}</Badge> : null}
            <Button
              size="sm"
              variant="ghost"
              className="h-7 px-2 text-xs"
              onClick={() => onReadmit(person.id)}
              aria-label={t`Let ${person.nickname} back in`}
              data-testid="member-readmit"
            >
              <UndoIcon />
              <Trans>Let back in</Trans>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
