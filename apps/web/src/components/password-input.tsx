import { useLingui } from '@lingui/react/macro';
import { Input } from '@rooms/ui/input';
import { cn } from '@rooms/ui/lib/utils';
import { EyeIcon, EyeOffIcon } from 'lucide-react';
import { type ComponentProps, useState } from 'react';

/** A password field with a show/hide toggle. */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <div className={cn('relative', className)}>
      <Input type={shown ? 'text' : 'password'} className="pr-10" {...props} />
      <button
        type="button"
        onClick={() => setShown((value) => !value)}
        aria-label={shown ? t`Hide password` : t`Show password`}
        aria-pressed={shown}
        className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center text-muted-foreground hover:text-foreground"
      >
        {shown ? <EyeOffIcon className="size-4" /> : <EyeIcon className="size-4" />}
      </button>
    </div>
  );
}
