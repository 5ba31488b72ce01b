import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { injectRecaptchaScript, whenRecaptchaReady } from '../lib/recaptcha.ts';

/**
 * The captcha widget (light theme, normal size, bottom-right badge). Mounted only when captcha is
 * enabled, so the provider's script is never requested otherwise. `resetSignal` changes → reset.
 */
export function Captcha({
  siteKey,
  onToken,
  resetSignal,
}: {
  siteKey: string;
  onToken: (token: string | null) => void;
  resetSignal: number;
}) {
  const { t } = useTranslation('auth');
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<number | null>(null);
  const tokenCallback = useRef(onToken);
  tokenCallback.current = onToken;

  useEffect(() => {
    injectRecaptchaScript();
    return whenRecaptchaReady((api) => {
      if (!box.current || widget.current !== null) return;
      widget.current = api.render(box.current, {
        sitekey: siteKey,
        theme: 'light',
        size: 'normal',
        badge: 'bottomright',
        callback: (token: string) => tokenCallback.current(token),
        'expired-callback': () => tokenCallback.current(null),
      });
    });
  }, [siteKey]);

  useEffect(() => {
    if (resetSignal > 0 && widget.current !== null) {
      window.grecaptcha?.reset(widget.current);
      tokenCallback.current(null);
    }
  }, [resetSignal]);

  return <div ref={box} aria-label={t('captcha.label')} className="flex justify-center" />;
}
