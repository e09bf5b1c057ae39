// The e-mail that carries a verification code.
import type { EmailCodePurpose } from '@rooms/db';
import type { TMailMessage } from '../../services/ports';

const subjects: Record<EmailCodePurpose, string> = {
  register: 'Your registration code',
  reset: 'Your password reset code',
};

const intros: Record<EmailCodePurpose, string> = {
  register: 'Use this code to finish creating your account:',
  reset: 'Use this code to reset your password:',
};

export function renderCodeMail(input: {
  to: string;
  code: string;
  purpose: EmailCodePurpose;
  siteName: string;
}): TMailMessage {
  const subject = `${input.siteName}: ${subjects[input.purpose]}`;
  const lines = [
    intros[input.purpose],
    '',
    `    ${input.code}`,
    '',
    'The code is valid for 10 minutes and can be used once.',
    'If you did not ask for it, you can ignore this message.',
  ];
  const html = `<p>${intros[input.purpose]}</p><p style="font-size:24px;font-weight:bold;letter-spacing:4px">${input.code}</p><p>The code is valid for 10 minutes and can be used once.<br>If you did not ask for it, you can ignore this message.</p>`;
  return { to: input.to, subject, text: lines.join('\n'), html };
}
