// Money is integer cents everywhere inside; the wire speaks dollars (a bill's amount, a plan's price).

export function toDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** Dollars with at most two decimals to cents; null when the amount has fractions of a cent. */
export function toCents(dollars: number): number | null {
  const cents = Math.round(dollars * 100);
  return Math.abs(cents - dollars * 100) < 1e-6 ? cents : null;
}

/** '$9.99', the form the catalogue's texts use; the screens format with the reader's locale. */
export function formatDollars(cents: number): string {
  return (cents / 100).toFixed(2);
}
