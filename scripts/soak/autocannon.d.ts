/** The parts of autocannon's API the soak uses beyond bench/autocannon.d.ts (the package ships no types). */
declare module 'autocannon' {
  export interface Client {
    setHeaders(headers: Record<string, string>): void;
  }

  interface Options {
    setupClient?: (client: Client) => void;
  }

  interface Histogram {
    p90: number;
  }

  interface Result {
    '4xx': number;
    '5xx': number;
  }
}
