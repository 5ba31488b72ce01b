import { useEffect, useState } from 'react';
import { toDataURL } from 'qrcode';
import { Spinner } from '../../components/Spinner.tsx';

/** QR code defaults of the spec (§9): size 128, error level L. */
export const QR_OPTIONS = { width: 128, errorCorrectionLevel: 'L', margin: 1 } as const;

export function QrCode({ value, alt }: { value: string; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    toDataURL(value, QR_OPTIONS).then(
      (data) => live && setUrl(data),
      () => live && setUrl(null),
    );
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div className="flex h-[144px] w-[144px] items-center justify-center rounded-md bg-white p-2">
      {url ? <img src={url} alt={alt} width={128} height={128} /> : <Spinner />}
    </div>
  );
}
