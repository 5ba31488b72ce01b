import { EulaPanel } from './EulaPanel.tsx';
import { JavaVersionPanel } from './JavaVersionPanel.tsx';
import { useServerStore } from './store.ts';

/** Extra panels for the egg's features (spec 001 §2 "Console"): `eula` and `java_version`. */
export function FeaturePanels() {
  const features = useServerStore((s) => s.server?.eggFeatures ?? []);
  return (
    <>
      {features.includes('eula') && <EulaPanel />}
      {features.includes('java_version') && <JavaVersionPanel />}
    </>
  );
}
