// A plan's limits as the plan page lists them, on the plan held and on each plan on offer.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TPlanView } from '@rooms/api/client';
import { CheckIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatRoomTime } from '../../../lib/billing';

function Limit({ children }: { children: ReactNode }) {
  return (
    <li className="flex items-start gap-2">
      <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" />
      <span>{children}</span>
    </li>
  );
}

export function PlanLimits({ plan }: { plan: TPlanView }) {
  const { i18n } = useLingui();
  const freeTime = formatRoomTime(i18n, plan.freeTimeQuotaMinutes * 60);
  const time = formatRoomTime(i18n, plan.timeQuotaMinutes * 60);
  return (
    <ul className="grid gap-1.5 text-sm" data-testid="plan-limits">
      <Limit>
        <Trans>Up to {plan.maxRooms} rooms</Trans>
      </Limit>
      <Limit>
        <Trans>{plan.maxConnections} connections per room</Trans>
      </Limit>
      <Limit>
        <Trans>
          Up to {plan.maxHeight}p ({plan.maxWidth}×{plan.maxHeight}) at {plan.maxFrameRate} fps
        </Trans>
      </Limit>
      <Limit>
        <Trans>Video bitrate up to {plan.maxBitrateKbps} kbps</Trans>
      </Limit>
      <Limit>
        {plan.regionCodes.length === 1 ? (
          <Trans>1 zone</Trans>
        ) : (
          <Trans>{plan.regionCodes.length} zones</Trans>
        )}
      </Limit>
      {plan.freeTimeQuotaMinutes > 0 ? (
        <Limit>
          <Trans>{freeTime} of free room time every month</Trans>
        </Limit>
      ) : null}
      {plan.timeQuotaMinutes > 0 ? (
        <Limit>
          {plan.permanent ? (
            <Trans>{time} of room time when claimed</Trans>
          ) : (
            <Trans>{time} of room time per period</Trans>
          )}
        </Limit>
      ) : null}
      <Limit>
        {plan.canConfigureAutoClose ? (
          <Trans>Configurable auto-close</Trans>
        ) : (
          <Trans>Rooms close after 20 minutes without anyone</Trans>
        )}
      </Limit>
      <Limit>
        {plan.persistentStorage ? <Trans>Browser data kept</Trans> : <Trans>No kept browser data</Trans>}
      </Limit>
    </ul>
  );
}
