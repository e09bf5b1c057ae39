import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Card, CardContent, CardHeader, CardTitle } from '@rooms/ui/card';
import { createFileRoute, Link } from '@tanstack/react-router';
import { CreditCardIcon, DoorOpenIcon, HandIcon, Share2Icon, UserRoundIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export const Route = createFileRoute('/_app/help')({
  staticData: { title: msg`Help` },
  component: HelpPage,
});

function Topic({
  id,
  icon,
  title,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card id={id} className="scroll-mt-24">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          {icon}
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-muted-foreground leading-relaxed [&_a]:text-primary [&_a]:underline [&_li]:ml-5 [&_ol]:list-decimal [&_strong]:text-foreground [&_ul]:list-disc">
        {children}
      </CardContent>
    </Card>
  );
}

function HelpPage() {
  const topics = [
    { id: 'account', label: <Trans>Your account</Trans> },
    { id: 'create', label: <Trans>Create a room</Trans> },
    { id: 'share', label: <Trans>Share a room</Trans> },
    { id: 'control', label: <Trans>Hand over control</Trans> },
    { id: 'plans', label: <Trans>Plans and bills</Trans> },
  ];
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="font-semibold text-2xl">
          <Trans>User guide</Trans>
        </h1>
        <p className="mt-2 text-muted-foreground">
          <Trans>
            A room is a browser that runs on our servers and that everyone in the room sees at once. This
            guide walks you through creating one, inviting people and passing the mouse around.
          </Trans>
        </p>
      </div>
      <nav className="flex flex-wrap gap-2">
        {topics.map((topic) => (
          <a
            key={topic.id}
            href={`#${topic.id}`}
            className="rounded-full border px-3 py-1 text-sm hover:bg-accent"
          >
            {topic.label}
          </a>
        ))}
      </nav>

      <Topic
        id="account"
        icon={<UserRoundIcon className="size-5 text-primary" />}
        title={<Trans>Your account</Trans>}
      >
        <ol>
          <li>
            <Trans>
              <strong>Register</strong> with a username, your e-mail address and a password of at least 6
              characters. Tick “I'm not a robot”, press <strong>Send code</strong> and type the 6-digit code
              we e-mail you. A new code can be requested every 60 seconds.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Log in</strong> with your e-mail address and password. You stay logged in for one day.
            </Trans>
          </li>
          <li>
            <Trans>
              Forgot your password? Use <strong>Forgot password?</strong> on the login screen: we e-mail a
              code, you choose a new password and are taken back to login.
            </Trans>
          </li>
          <li>
            <Trans>
              Your <Link to="/profile">personal info</Link> shows your e-mail, balance, last login and lets
              you change your password. The language menu in the top bar switches between English and Chinese.
            </Trans>
          </li>
        </ol>
      </Topic>

      <Topic
        id="create"
        icon={<DoorOpenIcon className="size-5 text-primary" />}
        title={<Trans>Create a room</Trans>}
      >
        <ol>
          <li>
            <Trans>
              Open the <strong>Dashboard</strong> and press <strong>Create room</strong>.
            </Trans>
          </li>
          <li>
            <Trans>
              Give it a name and, if you like, a remark and a password. Choose a <strong>region</strong> close
              to your group and a <strong>system image</strong> (the browser the room runs).
            </Trans>
          </li>
          <li>
            <Trans>
              Set the quality: maximum connections, resolution, video bitrate and frame rate. Your plan
              decides the highest values and the regions you can use.
            </Trans>
          </li>
          <li>
            <Trans>
              A room closes by itself after 20 minutes without anyone connected (you can change this on plans
              that allow it). Browsing data is deleted when a room stops unless you turn on{' '}
              <strong>keep data</strong>.
            </Trans>
          </li>
          <li>
            <Trans>
              Start, stop, restart or delete a room from its card on the dashboard. A running room is ready to
              enter.
            </Trans>
          </li>
        </ol>
      </Topic>

      <Topic
        id="share"
        icon={<Share2Icon className="size-5 text-primary" />}
        title={<Trans>Share a room</Trans>}
      >
        <ul>
          <li>
            <Trans>
              <strong>By link:</strong> open the room's share dialog and send the link together with the
              room's password. Guests enter a nickname before they join.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>In the public square:</strong> mark the room public and it appears under{' '}
              <Link to="/publicrooms">Public rooms</Link>, open to anyone. Only do this for rooms where anyone
              may watch what happens.
            </Trans>
          </li>
          <li>
            <Trans>
              The share button in the top bar shares this website itself: copy its address, show a QR code or
              post it to a social network.
            </Trans>
          </li>
        </ul>
      </Topic>

      <Topic
        id="control"
        icon={<HandIcon className="size-5 text-primary" />}
        title={<Trans>Hand over control</Trans>}
      >
        <ul>
          <li>
            <Trans>
              Everyone sees the same browser, but one person at a time controls the mouse and keyboard. The
              owner has control when the room opens.
            </Trans>
          </li>
          <li>
            <Trans>
              To drive, press <strong>Request control</strong>. The current driver sees your request and hands
              over control with one click, or keeps it.
            </Trans>
          </li>
          <li>
            <Trans>
              Entering a room that is in use may disturb the people in it; you are asked to confirm before you
              join.
            </Trans>
          </li>
        </ul>
      </Topic>

      <Topic
        id="plans"
        icon={<CreditCardIcon className="size-5 text-primary" />}
        title={<Trans>Plans and bills</Trans>}
      >
        <ul>
          <li>
            <Trans>
              Every account holds the <strong>free plan</strong> and can claim it once, which adds a little
              room time. Paid plans (Pro, monthly or yearly) allow more rooms and connections, 1080p at 60
              fps, a higher bitrate, configurable auto-close and kept browser data, and show VIP on your
              avatar.
            </Trans>
          </li>
          <li>
            <Trans>
              A running room uses its owner’s <strong>room time</strong>: this month’s free time first, then
              the time that comes with your plan. When none is left your running rooms stop and you see a
              notice; free time comes back on the first day of each month.{' '}
              <Link to="/planlist">Subscription</Link> shows what is left.
            </Trans>
          </li>
          <li>
            <Trans>
              Plans are paid from your prepaid <strong>balance</strong>; recharge it under{' '}
              <Link to="/bill/pay">Recharge</Link>. Buying a plan ends your current one at once, and the
              balance must cover the price; buying the plan you hold renews it. Some plans have limited stock
              and show “Sold out” when none is left.
            </Trans>
          </li>
          <li>
            <Trans>
              With <strong>auto-renew</strong> on, a plan renews from your balance when it expires; if the
              balance is short, your account goes back to the free plan and rooms beyond its limits stop.
            </Trans>
          </li>
          <li>
            <Trans>
              A recharge creates a bill and takes you to the payment page. Bills are listed under{' '}
              <Link to="/bill">Bill management</Link> with their status: unpaid (with its payment link: pay
              first, then refresh), paid, expired (unpaid bills expire after a while) or unknown. Refresh asks
              the payment provider for the latest status.
            </Trans>
          </li>
        </ul>
      </Topic>
    </div>
  );
}
