/** The part of the `qrcode` package the profile's two-factor panel uses (it ships no types). */
declare module 'qrcode' {
  export function toString(
    text: string,
    options: { type: 'svg'; margin?: number; errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' },
  ): Promise<string>;
}
