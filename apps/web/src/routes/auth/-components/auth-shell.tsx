import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import type { ReactNode } from 'react';
import { StandalonePage } from '../../../components/standalone-page';

export function AuthShell({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <StandalonePage>
      <Card className="mx-auto w-full max-w-md">
        <CardHeader>
          <CardTitle className="text-2xl">{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </StandalonePage>
  );
}

export function Field({
  label,
  htmlFor,
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <label htmlFor={htmlFor} className="font-medium text-sm">
        {label}
      </label>
      {children}
    </div>
  );
}
