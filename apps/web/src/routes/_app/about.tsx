import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Card, CardContent, CardHeader, CardTitle } from '@rooms/ui/card';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useSupportEmail } from '../../hooks/use-site-info';
import { APP_VERSION } from '../../lib/site';

export const Route = createFileRoute('/_app/about')({
  staticData: { title: msg`About` },
  component: AboutPage,
});

function AboutPage() {
  // The operator's own address (SUPPORT_EMAIL); without one the page offers the guide alone.
  const supportEmail = useSupportEmail();
  return (
    <div className="grid gap-6">
      <h1 className="font-semibold text-2xl">
        <Trans>About Cloud-browser rooms</Trans>
      </h1>
      <Card>
        <CardHeader>
          <CardTitle>
            <Trans>What we do</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-muted-foreground leading-relaxed [&_a]:text-primary [&_a]:underline">
          <p>
            <Trans>
              Cloud-browser rooms lets a group browse the web and watch videos together in one browser that
              runs on our servers. There is no screen sharing: every member sees the same page, and control of
              the browser passes from one person to another.
            </Trans>
          </p>
          <p>
            <Trans>
              Rooms can be private, shared by a link with a password, or made public in the square. Start on
              the free plan; paid plans raise the limits.
            </Trans>
          </p>
          <p data-testid="about-support">
            {supportEmail ? (
              <Trans>
                Questions? Read the <Link to="/help">user guide</Link> or write to{' '}
                <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
              </Trans>
            ) : (
              <Trans>
                Questions? Read the <Link to="/help">user guide</Link>.
              </Trans>
            )}
          </p>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
          <span>
            <Trans>Version</Trans> <strong data-testid="app-version">{APP_VERSION}</strong>
          </span>
          <span>
            © {new Date().getFullYear()} <Trans>Cloud-browser rooms</Trans>
          </span>
        </CardContent>
      </Card>
    </div>
  );
}
