import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A chunk of a spool: its text, and how many records it holds (for progress). */
export interface SpoolChunk {
  text: string;
  records: number;
}

/**
 * Text kept in a private temporary file, written in chunks and given back in the same chunks.
 *
 * The transfer uses it so that no transaction waits on something slow outside the database: an
 * export on the embedded database reads its snapshot into a spool and writes it out after the
 * transaction, and an import reads a pipe into a spool before its transaction begins. Memory holds
 * one chunk at a time, whatever the size of the dump; the disk (TMPDIR) holds the rest.
 *
 * The file is unlinked as soon as it is open (the open handle keeps it): a dump holds emails and
 * voter salts, so no other process may open it, and a crash leaves nothing behind.
 */
export class Spool {
  private readonly chunkBytes: number[] = [];
  private readonly chunkRecords: number[] = [];
  private size = 0;

  private constructor(private readonly file: FileHandle) {}

  static async open(): Promise<Spool> {
    const dir = await mkdtemp(join(tmpdir(), 'feedback-spool-'));
    try {
      return new Spool(await open(join(dir, 'spool'), 'wx+', 0o600));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.size;
  }

  async append(text: string, records = 0): Promise<void> {
    if (text.length === 0) return;
    const buffer = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < buffer.length) {
      const { bytesWritten } = await this.file.write(buffer, written, buffer.length - written, this.size + written);
      written += bytesWritten;
    }
    this.size += buffer.length;
    this.chunkBytes.push(buffer.length);
    this.chunkRecords.push(records);
  }

  /** The chunks in the order they were appended. */
  async *chunks(): AsyncGenerator<SpoolChunk> {
    let position = 0;
    for (let i = 0; i < this.chunkBytes.length; i += 1) {
      const buffer = Buffer.allocUnsafe(this.chunkBytes[i]!);
      let read = 0;
      while (read < buffer.length) {
        const { bytesRead } = await this.file.read(buffer, read, buffer.length - read, position + read);
        if (bytesRead === 0) throw new Error('the spool file ended early');
        read += bytesRead;
      }
      position += buffer.length;
      // Chunks are whole strings, so a character is never split between two of them.
      yield { text: buffer.toString('utf8'), records: this.chunkRecords[i]! };
    }
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

/** Roughly how much text of a dump's lines goes into one chunk of a spool. */
const LINES_CHUNK_CHARS = 1 << 20;

/**
 * Reads `lines` to their end into a spool and gives them back from it, so that a transaction
 * begun afterwards never waits on whoever writes them (a pipe from `feedback export`).
 */
export async function spoolLines(lines: AsyncIterable<string>): Promise<{ lines: AsyncIterable<string>; close(): Promise<void> }> {
  const spool = await Spool.open();
  try {
    let pending: string[] = [];
    let chars = 0;
    for await (const line of lines) {
      pending.push(line);
      chars += line.length + 1;
      if (chars >= LINES_CHUNK_CHARS) {
        await spool.append(`${pending.join('\n')}\n`, pending.length);
        pending = [];
        chars = 0;
      }
    }
    if (pending.length > 0) await spool.append(`${pending.join('\n')}\n`, pending.length);
  } catch (error) {
    await spool.close();
    throw error;
  }
  async function* replay(): AsyncGenerator<string> {
    for await (const chunk of spool.chunks()) {
      const text = chunk.text.slice(0, -1);
      yield* text.split('\n');
    }
  }
  return { lines: replay(), close: () => spool.close() };
}
