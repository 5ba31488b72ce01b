import { MessageBox } from '../components/MessageBox.tsx';
import { useGlobalStore } from './store.ts';

/** Shows the flash messages of one key (or all, without a key). */
export function FlashMessageRender({ byKey, className = '' }: { byKey?: string; className?: string }) {
  const flashes = useGlobalStore((s) => s.flashes);
  const shown = byKey === undefined ? flashes : flashes.filter((f) => (f.key ?? '') === byKey);
  if (shown.length === 0) return null;
  return (
    <div className={`space-y-2 ${className}`}>
      {shown.map((flash) => (
        <MessageBox key={flash.id} type={flash.type} title={flash.title}>
          {flash.message}
        </MessageBox>
      ))}
    </div>
  );
}
