/**
 * Reports that do not grow with the run. Each file's results are written to a spill file on disk
 * as soon as the file ends, and memory keeps only where each one starts; at the end every report
 * is assembled from the spill, one file's results in memory at a time, sorted by path as before.
 * So a run of a million requests writes its JSON or JUnit report with the memory of one file.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openOutputFile } from '../atomic-write.js';
import { spillFolder } from '../http/body-sinks.js';
import type { FileReport } from './json-schema.js';
import type { ReportSections, ReportSummary } from './render.js';

interface SpilledFile {
  path: string;
  offset: number;
  length: number;
}

/** FileReports kept on disk, one JSON line each, read back sorted by path. */
export class FileReportSpill {
  // Named with the pid so a later run can sweep the spill of a killed one (removeStaleSpills).
  readonly dir = mkdtempSync(join(spillFolder(), `dial-report-${process.pid}-`));
  private readonly fd = openSync(join(this.dir, 'files.jsonl'), 'w+', 0o600);
  private readonly index: SpilledFile[] = [];
  private size = 0;

  /** Writes one file's results to disk. */
  add(file: FileReport): void {
    this.addLine(file.path, JSON.stringify(file));
  }

  /** Writes one file's results, already serialised (JSON.stringify of its FileReport), to disk. */
  addLine(path: string, json: string): void {
    const bytes = Buffer.from(`${json}\n`, 'utf8');
    writeSync(this.fd, bytes, 0, bytes.length, this.size);
    this.index.push({ path, offset: this.size, length: bytes.length });
    this.size += bytes.length;
  }

  /** The spilled files sorted by path, read back one at a time. */
  *files(): Generator<FileReport> {
    for (const line of this.lines()) yield JSON.parse(line) as FileReport;
  }

  /** The spilled files' JSON lines (without their line break) sorted by path, read back one at a time. */
  *lines(): Generator<string> {
    const sorted = [...this.index].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const entry of sorted) {
      const bytes = Buffer.alloc(entry.length);
      readSync(this.fd, bytes, 0, entry.length, entry.offset);
      yield bytes.toString('utf8', 0, entry.length - 1);
    }
  }

  /** Removes the spill file. */
  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Where an assembled report goes: a file written safely, or standard output. */
export interface ReportSink {
  /** May wait for the disk (back-pressure), so memory stays flat however big the report. */
  write(text: string): void | Promise<void>;
  /** Makes the report visible (renames a finished file into place). */
  finish(): Promise<void>;
  /** Drops a half-written report. */
  abort(): void;
}

/** Writes the head, each spilled file's section and the tail of one report into a sink, in pieces. */
export async function writeSpilledReport(
  sections: ReportSections,
  summary: ReportSummary,
  spill: FileReportSpill,
  sink: ReportSink,
): Promise<void> {
  const chunkSize = 64 * 1024;
  let pending = '';
  const write = async (text: string) => {
    pending += text;
    if (pending.length >= chunkSize) {
      const chunk = pending;
      pending = '';
      await sink.write(chunk);
    }
  };
  try {
    await write(sections.head(summary));
    if (sections.fileFromJson) for (const line of spill.lines()) await write(sections.fileFromJson(line));
    else for (const file of spill.files()) await write(sections.file(file));
    await write(sections.tail(summary));
    if (pending) await sink.write(pending);
  } catch (error) {
    sink.abort();
    throw error;
  }
  await sink.finish();
}

/**
 * A report file, written as safely as every file dial writes (src/core/atomic-write.ts): a
 * regular file is replaced when complete, a symlink's target is written, a FIFO or device is
 * written in place; every failure is E_IO naming the path.
 */
export function reportFileSink(path: string): ReportSink & { append(text: string): void } {
  const output = openOutputFile(path, { what: 'report' });
  return {
    // Live reporters' small writes: queued in order without waiting (a failure surfaces in finish).
    append: (text) => void output.stream.write(text),
    write: (text) =>
      new Promise<void>((resolveWrite) => {
        // Back-pressure: wait for the disk when the stream's buffer is full. A failed stream
        // closes instead of draining; finish() then reports its error.
        if (output.stream.write(text)) return resolveWrite();
        const done = () => {
          output.stream.off('drain', done);
          output.stream.off('close', done);
          resolveWrite();
        };
        output.stream.once('drain', done);
        output.stream.once('close', done);
      }),
    finish: () => output.finish(),
    abort: () => output.abort(),
  };
}
