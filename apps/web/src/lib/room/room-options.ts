// The create-room dialog's choices, bounded by the caller's plan (getRoomRegion/getRoomImage).

export interface TPlanBounds {
  maxWidth: number;
  maxHeight: number;
  maxFrameRate: number;
  maxBitrateKbps: number;
  maxConnections: number;
}

const RESOLUTIONS: [number, number][] = [
  [640, 360],
  [854, 480],
  [1024, 576],
  [1280, 720],
  [1600, 900],
  [1920, 1080],
  [2560, 1440],
  [3840, 2160],
];
const FRAME_RATES = [10, 15, 20, 24, 25, 30, 45, 50, 60, 90, 120];
const BITRATES = [500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 12_000, 16_000, 25_000, 50_000];
export const AUTO_CLOSE_MINUTES = [5, 10, 20, 30, 60, 120, 240, 480, 1440];

/** Standard sizes within the plan, largest first; the plan's own maximum is always offered. */
export function resolutionOptions(plan: TPlanBounds): { width: number; height: number }[] {
  const sizes = RESOLUTIONS.filter(([width, height]) => width <= plan.maxWidth && height <= plan.maxHeight);
  if (!sizes.some(([width, height]) => width === plan.maxWidth && height === plan.maxHeight)) {
    sizes.push([plan.maxWidth, plan.maxHeight]);
  }
  return sizes.map(([width, height]) => ({ width, height })).sort((a, b) => b.width - a.width);
}

function upTo(values: number[], max: number): number[] {
  const within = values.filter((value) => value <= max);
  if (!within.includes(max)) within.push(max);
  return within.sort((a, b) => b - a);
}

export const frameRateOptions = (plan: TPlanBounds) => upTo(FRAME_RATES, plan.maxFrameRate);
export const bitrateOptions = (plan: TPlanBounds) => upTo(BITRATES, plan.maxBitrateKbps);

export function connectionOptions(plan: TPlanBounds): number[] {
  return Array.from({ length: Math.max(1, plan.maxConnections) }, (_, index) => index + 1).reverse();
}
