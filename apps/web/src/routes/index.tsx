import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { createFileRoute, Link } from '@tanstack/react-router';
import {
  ArrowRightIcon,
  GaugeIcon,
  GlobeIcon,
  HandIcon,
  LockKeyholeIcon,
  MonitorSmartphoneIcon,
  MousePointer2Icon,
  PlayIcon,
  QuoteIcon,
  ShieldCheckIcon,
  SparklesIcon,
  StarIcon,
  UsersIcon,
  VideoIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { LanguageSelect } from '../components/layout/language-select';
import { Logo } from '../components/layout/logo';
import { useSupportEmail } from '../hooks/use-site-info';
import { isLoggedIn } from '../lib/session';

export const Route = createFileRoute('/')({
  staticData: { title: msg`Browse together` },
  component: Landing,
});

function Section({ id, children, className = '' }: { id?: string; children: ReactNode; className?: string }) {
  return (
    <section id={id} className={`mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 lg:py-24 ${className}`}>
      {children}
    </section>
  );
}

function Heading({ kicker, title, text }: { kicker: ReactNode; title: ReactNode; text?: ReactNode }) {
  return (
    <div className="mx-auto mb-12 max-w-2xl text-center">
      <p className="font-semibold text-primary text-sm uppercase tracking-wider">{kicker}</p>
      <h2 className="mt-2 font-bold text-3xl tracking-tight sm:text-4xl">{title}</h2>
      {text ? <p className="mt-4 text-lg text-muted-foreground">{text}</p> : null}
    </div>
  );
}

function Landing() {
  const loggedIn = isLoggedIn();
  return (
    // clip, not hidden: overflow-x hidden makes this wrapper a scroll container, and the sticky header would stick
    // to it (which never scrolls) instead of to the window.
    <div className="min-h-dvh overflow-x-clip">
      <header className="sticky top-0 z-[1000] border-b bg-background/80 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
          <Link to="/" className="min-w-0">
            {/* Out of sight, not out of the tree: the name stays the link's accessible name. */}
            <Logo className="max-[420px]:[&>span]:sr-only" />
          </Link>
          <nav className="ml-6 hidden gap-6 text-muted-foreground text-sm md:flex">
            <a href="#features" className="hover:text-foreground">
              <Trans>Features</Trans>
            </a>
            <a href="#advantages" className="hover:text-foreground">
              <Trans>Advantages</Trans>
            </a>
            <a href="#testimonials" className="hover:text-foreground">
              <Trans>Testimonials</Trans>
            </a>
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <LanguageSelect />
            {loggedIn ? (
              <Button asChild size="sm">
                <Link to="/dashboard">
                  <Trans>Dashboard</Trans>
                </Link>
              </Button>
            ) : (
              <>
                <Button asChild size="sm" variant="ghost">
                  <Link to="/auth/login">
                    <Trans>Log in</Trans>
                  </Link>
                </Button>
                <Button asChild size="sm">
                  <Link to="/auth/register">
                    <Trans>Sign up</Trans>
                  </Link>
                </Button>
              </>
            )}
          </div>
        </div>
      </header>

      <main>
        <Hero />
        <Stats />
        <Advantages />
        <Features />
        <Testimonials />
        <CallToAction />
      </main>
      <Footer />
    </div>
  );
}

function Hero() {
  return (
    <div className="relative">
      <div className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(60%_50%_at_50%_0%,color-mix(in_oklab,var(--primary)_22%,transparent),transparent)]" />
      <Section className="grid items-center gap-12 lg:grid-cols-2">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1 text-muted-foreground text-xs">
            <SparklesIcon className="size-3.5 text-primary" />
            <Trans>No screen sharing, no installs</Trans>
          </p>
          <h1 className="mt-6 font-bold text-4xl tracking-tight sm:text-5xl lg:text-6xl">
            <Trans>
              Browse the web <span className="text-primary">together</span>
            </Trans>
          </h1>
          <p className="mt-6 max-w-xl text-lg text-muted-foreground">
            <Trans>
              Open a room and everyone in it sees the same cloud browser, running on our servers. Watch videos
              in sync, shop, plan a trip or review a page, and pass the mouse to whoever needs it.
            </Trans>
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to="/dashboard">
                <Trans>Create a room</Trans>
                <ArrowRightIcon />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/help">
                <Trans>Read the guide</Trans>
              </Link>
            </Button>
          </div>
        </div>
        <BrowserMockup />
      </Section>
    </div>
  );
}

function BrowserMockup() {
  return (
    <div className="relative mx-auto w-full max-w-lg" aria-hidden>
      <div className="overflow-hidden rounded-xl border bg-card shadow-2xl shadow-primary/10">
        <div className="flex items-center gap-2 border-b px-4 py-3">
          <span className="size-3 rounded-full bg-red-400/80" />
          <span className="size-3 rounded-full bg-yellow-400/80" />
          <span className="size-3 rounded-full bg-green-400/80" />
          <span className="ml-3 h-6 flex-1 rounded-md bg-secondary" />
        </div>
        <div className="relative aspect-video bg-gradient-to-br from-emerald-500/30 via-secondary to-sky-500/20">
          <span className="absolute top-1/2 left-1/2 flex size-16 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-background/80">
            <PlayIcon className="ml-1 size-7 fill-primary text-primary" />
          </span>
          <span className="absolute top-[30%] left-[22%] flex items-center gap-1">
            <MousePointer2Icon className="size-5 fill-amber-400 text-amber-400" />
            <span className="rounded bg-amber-400 px-1.5 py-0.5 font-medium text-[10px] text-black">Mia</span>
          </span>
          <span className="absolute right-[18%] bottom-[22%] flex items-center gap-1">
            <MousePointer2Icon className="size-5 fill-sky-400 text-sky-400" />
            <span className="rounded bg-sky-400 px-1.5 py-0.5 font-medium text-[10px] text-black">Leo</span>
          </span>
          <div className="absolute inset-x-4 bottom-3 h-1 rounded-full bg-background/60">
            <div className="h-full w-2/5 rounded-full bg-primary" />
          </div>
        </div>
        <div className="flex items-center justify-between px-4 py-3 text-xs">
          <span className="flex -space-x-2">
            {['bg-amber-400', 'bg-sky-400', 'bg-emerald-400', 'bg-pink-400'].map((color) => (
              <span key={color} className={`size-6 rounded-full border-2 border-card ${color}`} />
            ))}
          </span>
          <span className="flex items-center gap-1 text-muted-foreground">
            <HandIcon className="size-3.5 text-primary" />
            <Trans>Mia has control</Trans>
          </span>
        </div>
      </div>
    </div>
  );
}

function Stats() {
  const stats = [
    { value: '1,000,000+', label: <Trans>hours of browsing every month</Trans> },
    {
      value: (
        <span className="inline-flex items-center gap-2">
          4.9 <StarIcon className="size-7 fill-amber-400 text-amber-400" />
        </span>
      ),
      label: <Trans>average rating</Trans>,
    },
    { value: '100,000+', label: <Trans>active users</Trans> },
  ];
  return (
    <div className="border-y bg-card/50">
      <div
        className="mx-auto grid max-w-6xl gap-8 px-4 py-12 text-center sm:grid-cols-3 sm:px-6"
        data-testid="stats"
      >
        {stats.map((stat, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <div key={index}>
            <div className="font-bold text-4xl text-primary">{stat.value}</div>
            <div className="mt-1 text-muted-foreground">{stat.label}</div>
          </div>
        ))}
      </div>
    </div>
  );
}

function Advantages() {
  const items = [
    {
      icon: MonitorSmartphoneIcon,
      title: <Trans>Nothing to install</Trans>,
      text: (
        <Trans>The browser runs on our servers. Join from any modern browser, on a laptop or a phone.</Trans>
      ),
    },
    {
      icon: GaugeIcon,
      title: <Trans>Smooth for everyone</Trans>,
      text: (
        <Trans>
          Everyone watches one stream of the same page, so slow connections do not hold the group back.
        </Trans>
      ),
    },
    {
      icon: LockKeyholeIcon,
      title: <Trans>Private by default</Trans>,
      text: (
        <Trans>Rooms are private until you share a link with a password or publish them to the square.</Trans>
      ),
    },
    {
      icon: ShieldCheckIcon,
      title: <Trans>Your device stays clean</Trans>,
      text: <Trans>Pages open in an isolated cloud browser, not on your computer.</Trans>,
    },
  ];
  return (
    <Section id="advantages">
      <Heading kicker={<Trans>Advantages</Trans>} title={<Trans>Why a shared cloud browser</Trans>} />
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <div key={index} className="rounded-xl border bg-card p-6">
            <item.icon className="size-8 text-primary" />
            <h3 className="mt-4 font-semibold text-lg">{item.title}</h3>
            <p className="mt-2 text-muted-foreground text-sm">{item.text}</p>
          </div>
        ))}
      </div>
    </Section>
  );
}

function Features() {
  const items = [
    {
      icon: UsersIcon,
      title: <Trans>Rooms for your group</Trans>,
      text: (
        <Trans>Create a room, pick a region and a system image, and invite people to browse with you.</Trans>
      ),
    },
    {
      icon: HandIcon,
      title: <Trans>Hand over control</Trans>,
      text: (
        <Trans>One person drives at a time; ask for control and the driver hands it over with a click.</Trans>
      ),
    },
    {
      icon: VideoIcon,
      title: <Trans>Watch in sync</Trans>,
      text: (
        <Trans>Videos play once, in the cloud, so everyone sees the same frame at the same moment.</Trans>
      ),
    },
    {
      icon: GlobeIcon,
      title: <Trans>Public square</Trans>,
      text: <Trans>Make a room public and anyone can find it in the square and drop in.</Trans>,
    },
  ];
  return (
    <Section id="features" className="border-t">
      <Heading
        kicker={<Trans>Features</Trans>}
        title={<Trans>Everything a group needs to browse as one</Trans>}
        text={<Trans>Free to start; paid plans raise the resolution, frame rate and number of rooms.</Trans>}
      />
      <div className="grid gap-6 md:grid-cols-2">
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <div key={index} className="flex gap-4 rounded-xl border bg-card p-6">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-primary/15">
              <item.icon className="size-6 text-primary" />
            </span>
            <div>
              <h3 className="font-semibold text-lg">{item.title}</h3>
              <p className="mt-1 text-muted-foreground">{item.text}</p>
            </div>
          </div>
        ))}
      </div>
    </Section>
  );
}

function Testimonials() {
  const quotes = [
    {
      text: (
        <Trans>
          Our film club watches together every Friday. Nobody has to fight with screen sharing anymore.
        </Trans>
      ),
      who: <Trans>Film club organiser</Trans>,
    },
    {
      text: (
        <Trans>
          We review web pages as a team and pass the mouse around. It feels like sitting at one desk.
        </Trans>
      ),
      who: <Trans>Product team lead</Trans>,
    },
    {
      text: <Trans>My students open the same page as I do, even on old school laptops.</Trans>,
      who: <Trans>Secondary school teacher</Trans>,
    },
  ];
  return (
    <Section id="testimonials" className="border-t">
      <Heading kicker={<Trans>Testimonials</Trans>} title={<Trans>Loved by groups of every size</Trans>} />
      <div className="grid gap-6 md:grid-cols-3">
        {quotes.map((quote, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <figure key={index} className="rounded-xl border bg-card p-6">
            <QuoteIcon className="size-6 text-primary" />
            <blockquote className="mt-3">{quote.text}</blockquote>
            <figcaption className="mt-4 text-muted-foreground text-sm">— {quote.who}</figcaption>
          </figure>
        ))}
      </div>
    </Section>
  );
}

function CallToAction() {
  return (
    <Section>
      <div className="rounded-2xl border bg-gradient-to-br from-primary/25 via-card to-card p-8 text-center sm:p-12">
        <h2 className="font-bold text-3xl tracking-tight">
          <Trans>Open your first room in a minute</Trans>
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          <Trans>Sign up with your e-mail address and start on the free plan.</Trans>
        </p>
        <Button asChild size="lg" className="mt-6">
          <Link to="/auth/register">
            <Trans>Get started for free</Trans>
            <ArrowRightIcon />
          </Link>
        </Button>
      </div>
    </Section>
  );
}

function Footer() {
  const linkClass = 'text-muted-foreground hover:text-foreground';
  // Contact is the operator's own address (SUPPORT_EMAIL), offered only when there is one.
  const supportEmail = useSupportEmail();
  return (
    <footer className="border-t bg-card/50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-3 text-muted-foreground text-sm">
            <Trans>A shared cloud browser for groups.</Trans>
          </p>
        </div>
        <div>
          <h3 className="font-semibold">
            <Trans>App</Trans>
          </h3>
          <ul className="mt-3 grid gap-2 text-sm">
            <li>
              <Link to="/dashboard" className={linkClass}>
                <Trans>Dashboard</Trans>
              </Link>
            </li>
            <li>
              <Link to="/publicrooms" className={linkClass}>
                <Trans>Public rooms</Trans>
              </Link>
            </li>
            <li>
              <Link to="/planlist" className={linkClass}>
                <Trans>Subscription</Trans>
              </Link>
            </li>
            <li>
              <Link to="/help" className={linkClass}>
                <Trans>Help</Trans>
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h3 className="font-semibold">
            <Trans>Company</Trans>
          </h3>
          <ul className="mt-3 grid gap-2 text-sm">
            <li>
              <Link to="/about" className={linkClass}>
                <Trans>About us</Trans>
              </Link>
            </li>
            {supportEmail ? (
              <li>
                <a href={`mailto:${supportEmail}`} className={linkClass} data-testid="landing-contact">
                  <Trans>Contact</Trans>
                </a>
              </li>
            ) : null}
          </ul>
        </div>
        <div>
          <h3 className="font-semibold">
            <Trans>Policies</Trans>
          </h3>
          <ul className="mt-3 grid gap-2 text-sm">
            <li>
              <a href="#terms" className={linkClass}>
                <Trans>Terms of Service</Trans>
              </a>
            </li>
            <li>
              <a href="#privacy" className={linkClass}>
                <Trans>Privacy Policy</Trans>
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="mx-auto grid max-w-6xl gap-6 px-4 pb-8 text-muted-foreground text-xs sm:px-6 md:grid-cols-2">
        <div id="terms">
          <h4 className="font-semibold text-foreground text-sm">
            <Trans>Terms of Service</Trans>
          </h4>
          <p className="mt-1">
            <Trans>
              Use rooms lawfully and respect the sites you visit. You are responsible for what is done in
              rooms you own; public rooms are open to anyone. Plans are paid from your prepaid balance and run
              until their expiry; buying a new plan ends the current one at once. With auto-renew on, a plan
              renews from the balance when it expires, else the account returns to the free plan. Running
              rooms use room time and stop when none is left.
            </Trans>
          </p>
        </div>
        <div id="privacy">
          <h4 className="font-semibold text-foreground text-sm">
            <Trans>Privacy Policy</Trans>
          </h4>
          <p className="mt-1">
            <Trans>
              We keep your e-mail address, username and the time and address of your last login to run your
              account. Browsing data of a room is deleted when the room closes unless you turn on keeping
              data.
            </Trans>
          </p>
        </div>
      </div>
      <div className="border-t py-4 text-center text-muted-foreground text-xs">
        <Trans>© {new Date().getFullYear()} Cloud-browser rooms · v1.0.0</Trans>
      </div>
    </footer>
  );
}
