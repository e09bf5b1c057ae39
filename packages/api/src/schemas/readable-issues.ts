// The text of a validation failure that its schema gives no words of its own: what a person calling the API reads
// in the reply's `data` (e.g. `"out_trade_no" is required`), instead of the validation library's own wording
// ("Invalid input: expected string, received undefined"). Schemas that name a text (the spec's, or one of their
// own) keep it: zod asks this only for issues without one. Installed once for the process, from ../errors.ts.
import { type core, z } from 'zod';

type TIssue = core.$ZodRawIssue;

/** `"page"`, `"deep.field"`; an issue about the whole input has no name. */
function fieldName(issue: TIssue): string | undefined {
  const path = (issue.path ?? []).filter((key) => typeof key === 'string' || typeof key === 'number');
  return path.length > 0 ? `"${path.join('.')}"` : undefined;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
};

function wrongType(issue: core.$ZodRawIssue<core.$ZodIssueInvalidType>, field: string | undefined): string {
  if (issue.input === undefined) return field ? `${field} is required` : 'The request has no data';
  const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
  if (field) return `${field} must be ${expected}`;
  return issue.expected === 'object'
    ? 'The request must be a JSON object'
    : `The request must be ${expected}`;
}

function tooBig(issue: core.$ZodRawIssue<core.$ZodIssueTooBig>, field: string): string {
  const limit = String(issue.maximum);
  if (issue.origin === 'string') return `${field} has at most ${limit} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `${field} has at most ${limit} items`;
  return `${field} must be at most ${limit}`;
}

function tooSmall(issue: core.$ZodRawIssue<core.$ZodIssueTooSmall>, field: string): string {
  const limit = String(issue.minimum);
  if (issue.origin === 'string')
    return limit === '1' ? `${field} cannot be empty` : `${field} needs at least ${limit} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `${field} needs at least ${limit} items`;
  return `${field} must be at least ${limit}`;
}

/** zod's `customError`: a message, or undefined to leave zod's own. */
export function readableIssue(issue: TIssue): string | undefined {
  const field = fieldName(issue);
  const subject = field ?? 'The value';
  switch (issue.code) {
    case 'invalid_type':
      return wrongType(issue as core.$ZodRawIssue<core.$ZodIssueInvalidType>, field);
    case 'too_big':
      return tooBig(issue as core.$ZodRawIssue<core.$ZodIssueTooBig>, subject);
    case 'too_small':
      return tooSmall(issue as core.$ZodRawIssue<core.$ZodIssueTooSmall>, subject);
    case 'invalid_value': {
      const values = (issue as core.$ZodRawIssue<core.$ZodIssueInvalidValue>).values.map((value) =>
        JSON.stringify(value),
      );
      return `${subject} must be one of ${values.join(', ')}`;
    }
    case 'invalid_union':
      // A tagged union (a socket message's "type") names its tag; any other matched none of its forms.
      return 'discriminator' in issue && field
        ? `${field} is not one of the known kinds`
        : `${subject} matches none of the accepted forms`;
    case 'invalid_format':
      return `${subject} is not in a valid format`;
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${String((issue as core.$ZodRawIssue<core.$ZodIssueNotMultipleOf>).divisor)}`;
    case 'unrecognized_keys':
      return `Unknown ${(issue as core.$ZodRawIssue<core.$ZodIssueUnrecognizedKeys>).keys.map((key) => `"${key}"`).join(', ')}`;
    default:
      return undefined;
  }
}

z.config({ customError: readableIssue });
