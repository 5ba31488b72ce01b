import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatBytes, formatBytesShort } from '../../lib/shared.ts';
import { byteSplits } from './axisSplits.ts';
import { appendSample, emptyHistory, type StatsHistory } from './history.ts';
import { useServerStore, type LiveStats } from './store.ts';

interface Series {
  label: string;
  colour: string;
  values: (h: StatsHistory) => number[];
}

const AXIS = { stroke: '#a1a1aa', grid: { stroke: '#27272a' }, ticks: { stroke: '#27272a' } };

/** One small live chart; recreated only when its size changes, fed with setData otherwise. */
function Chart({
  title,
  series,
  history,
  format,
  axisFormat = format,
  minTop,
  bytes = false,
  testId,
}: {
  title: string;
  series: Series[];
  history: StatsHistory;
  format: (value: number) => string;
  axisFormat?: (value: number) => string;
  /** The y axis reaches at least this far, so a quiet server's axis reads in whole units. */
  minTop: number;
  /** Byte axes are marked at binary steps (1 MB, 512 kB) instead of uPlot's decimal ones. */
  bytes?: boolean;
  testId: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(history);
  latest.current = history;

  useEffect(() => {
    const el = host.current!;
    const data = () =>
      [latest.current.time, ...series.map((s) => s.values(latest.current))] as uPlot.AlignedData;
    const make = (width: number) => {
      plot.current?.destroy();
      plot.current = new uPlot(
        {
          width,
          height: 140,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, minTop) * 1.1] } },
          axes: [
            { ...AXIS, values: (_u, ticks) => ticks.map(() => ''), size: 8 },
            {
              ...AXIS,
              size: 72,
              values: (_u, ticks) => ticks.map(axisFormat),
              ...(bytes
                ? { splits: (_u: uPlot, _axis: number, _min: number, max: number) => byteSplits(max) }
                : {}),
            },
          ],
          series: [
            {},
            ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2, fill: `${s.colour}22` })),
          ],
        },
        data(),
        el,
      );
    };
    make(Math.max(el.clientWidth, 200));
    const observer = new ResizeObserver(() => {
      const width = Math.max(el.clientWidth, 200);
      if (plot.current && Math.abs(plot.current.width - width) > 2) make(width);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // The chart's shape never changes after mounting; data flows in through setData below.
  }, []);

  useEffect(() => {
    plot.current?.setData([history.time, ...series.map((s) => s.values(history))] as uPlot.AlignedData);
  }, [history, series]);

  const last = series.map((s) => s.values(history).at(-1) ?? 0);
  return (
    <figure className="min-w-0 rounded-lg border border-zinc-800 bg-zinc-900/80 p-3" data-testid={testId}>
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-zinc-200">{title}</span>
        <span className="flex gap-3 font-mono text-xs text-zinc-400" data-testid={`${testId}-value`}>
          {series.map((s, i) => (
            <span key={s.label} style={{ color: s.colour }}>
              {series.length > 1 ? `${s.label} ` : ''}
              {format(last[i]!)}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={host} className="w-full overflow-hidden" data-points={history.time.length} />
    </figure>
  );
}

/** CPU, memory and network over the last minutes, fed by the live `stats` events. */
export function Graphs() {
  const { t } = useTranslation('server');
  const [history, setHistory] = useState<StatsHistory>(emptyHistory);

  useEffect(() => {
    let previous: LiveStats | null = useServerStore.getState().stats;
    return useServerStore.subscribe((state) => {
      if (!state.stats || state.stats === previous) return;
      const stats = state.stats;
      const before = previous;
      previous = stats;
      setHistory((h) => appendSample(h, stats, before, Date.now()));
    });
  }, []);

  const [cpu] = useState<Series[]>(() => [
    { label: t('graphs.cpu'), colour: '#38bdf8', values: (h) => h.cpu },
  ]);
  const [memory] = useState<Series[]>(() => [
    { label: t('graphs.memory'), colour: '#a78bfa', values: (h) => h.memory },
  ]);
  const [network] = useState<Series[]>(() => [
    { label: t('graphs.inbound'), colour: '#34d399', values: (h) => h.rx },
    { label: t('graphs.outbound'), colour: '#fbbf24', values: (h) => h.tx },
  ]);

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
      <Chart
        title={t('graphs.cpu')}
        series={cpu}
        history={history}
        format={(v) => `${v.toFixed(1)} %`}
        minTop={1}
        testId="graph-cpu"
      />
      <Chart
        title={t('graphs.memory')}
        series={memory}
        history={history}
        format={formatBytes}
        axisFormat={formatBytesShort}
        minTop={1024 * 1024}
        bytes
        testId="graph-memory"
      />
      <Chart
        title={t('graphs.network')}
        series={network}
        history={history}
        format={(v) => `${formatBytes(v)}/s`}
        axisFormat={(v) => `${formatBytesShort(v)}/s`}
        minTop={1024}
        bytes
        testId="graph-network"
      />
    </div>
  );
}
