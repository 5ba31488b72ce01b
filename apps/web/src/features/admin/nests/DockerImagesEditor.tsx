import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button.tsx';

export interface ImageRow {
  label: string;
  image: string;
}

export function toImageRows(images: Record<string, string>): ImageRow[] {
  const rows = Object.entries(images).map(([label, image]) => ({ label, image }));
  return rows.length > 0 ? rows : [{ label: '', image: '' }];
}

/** What is wrong with the list, in words, or null: every row needs an image, labels are unique. */
export function imageRowsProblem(rows: ImageRow[], t: (key: string) => string): string | null {
  const filled = rows.filter((row) => row.label.trim() !== '' || row.image.trim() !== '');
  if (filled.length === 0) return t('nests.images.none');
  if (filled.some((row) => row.image.trim() === '')) return t('nests.images.image_missing');
  const labels = filled.map((row) => (row.label.trim() || row.image.trim()).toLowerCase());
  if (new Set(labels).size !== labels.length) return t('nests.images.duplicate');
  return null;
}

/** `{label: image}` as the API takes it; a row without a label is named after its image. */
export function toImageMap(rows: ImageRow[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const row of rows) {
    if (row.image.trim() === '') continue;
    map[row.label.trim() || row.image.trim()] = row.image.trim();
  }
  return map;
}

const INPUT =
  'focus-ring block w-full min-w-0 rounded-md border bg-zinc-900 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500 hover:border-zinc-500';

/** The egg's docker images: one row per image, its label (what users pick) and the image name. */
export function DockerImagesEditor({
  rows,
  onChange,
  error,
}: {
  rows: ImageRow[];
  onChange: (rows: ImageRow[]) => void;
  error?: string;
}) {
  const { t } = useTranslation('admin');
  const set = (index: number, patch: Partial<ImageRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const border = error ? 'border-red-500' : 'border-zinc-700';
  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="mb-1 block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {t('nests.images.title')}
      </legend>
      <ul className="space-y-2">
        {rows.map((row, index) => (
          <li
            key={index}
            className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]"
          >
            <input
              aria-label={t('nests.images.label_n', { n: index + 1 })}
              placeholder={t('nests.images.label_placeholder')}
              value={row.label}
              onChange={(event) => set(index, { label: event.target.value })}
              className={`${INPUT} ${border} col-span-2 sm:col-span-1`}
            />
            <input
              aria-label={t('nests.images.image_n', { n: index + 1 })}
              placeholder="ghcr.io/pterodactyl/yolks:java_21"
              value={row.image}
              spellCheck={false}
              onChange={(event) => set(index, { image: event.target.value })}
              className={`${INPUT} ${border} font-mono`}
            />
            <Button
              variant="ghost"
              aria-label={t('nests.images.remove_n', { n: index + 1 })}
              disabled={rows.length === 1}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              {t('nests.images.remove')}
            </Button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="text-xs break-words text-red-400">
          {error}
        </p>
      )}
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-zinc-400">{t('nests.images.hint')}</p>
        <Button
          variant="secondary"
          className="whitespace-nowrap"
          onClick={() => onChange([...rows, { label: '', image: '' }])}
        >
          {t('nests.images.add')}
        </Button>
      </div>
    </fieldset>
  );
}
