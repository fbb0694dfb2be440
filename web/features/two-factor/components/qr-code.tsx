import { useEffect, useState } from 'react';

/**
 * A QR code drawn in the browser: the `qrcode` package is loaded only when one is shown, and the
 * text never leaves the page (no third-party service sees a secret).
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qrcode) => qrcode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then((drawn) => {
        if (live) setSvg(drawn);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text]);
  if (!svg) return <div className="bg-body-secondary" style={{ width: 200, height: 200 }} aria-hidden="true" />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={200}
      height={200}
      className="bg-white p-1 border rounded"
    />
  );
}
