import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { httpRequest, type ApiResponse, type RequestOptions } from './test-app.js';

const ROOT = process.cwd();
// One level below the root, so that dist's own `../../package.json` finds a package.json there.
const BUILD_ROOT = join(ROOT, '.e2e-dist');

function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        hash.update(relative(ROOT, path));
        hash.update(readFileSync(path));
      }
    }
  };
  walk(join(ROOT, 'src'));
  hash.update(readFileSync(join(ROOT, 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The service compiled as `npm run build` compiles it, for tests that run it as a process of its
 * own (signals, several replicas). Built once per version of the sources, shared by test files.
 */
export function builtService(): string {
  const hash = sourceHash();
  const dir = join(BUILD_ROOT, hash);
  if (!existsSync(join(dir, 'main.js'))) {
    mkdirSync(BUILD_ROOT, { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(BUILD_ROOT, 'package.json'));
    const staging = `${dir}.${process.pid}`;
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        staging,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (tsc.status !== 0) throw new Error(`build failed:\n${tsc.stdout}${tsc.stderr}`);
    try {
      renameSync(staging, dir);
    } catch {
      // Another test file built the same sources first.
      rmSync(staging, { recursive: true, force: true });
    }
    for (const old of readdirSync(BUILD_ROOT)) {
      if (old !== hash && old !== 'package.json' && !old.includes('.')) {
        rmSync(join(BUILD_ROOT, old), { recursive: true, force: true });
      }
    }
  }
  return join(dir, 'main.js');
}

/** The built service running in a child process, as `node dist/main.js` runs in production. */
export class ServiceProcess {
  private static readonly running = new Set<ServiceProcess>();
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  baseUrl = '';

  private constructor(private readonly child: ChildProcess) {
    // A buffer per stream: a line one of them has half written must not take in the other's.
    const keep = (stream: NodeJS.ReadableStream): void => {
      let buffered = '';
      stream.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        this.lines.push(...parts.filter((line) => line !== ''));
      });
    };
    keep(child.stdout!);
    keep(child.stderr!);
    // On 'close', not 'exit': by then everything the process printed has been read.
    this.exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
    ServiceProcess.running.add(this);
    void this.exited.then(() => ServiceProcess.running.delete(this));
  }

  /** Test clean-up: stops every service process still running, even one that failed to start. */
  static async killAll(): Promise<void> {
    await Promise.all([...ServiceProcess.running].map((service) => service.kill()));
  }

  /** Starts it on a free port of the loopback and waits until it listens. */
  static async start(env: Record<string, string>): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [builtService()], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child);
    const deadline = Date.now() + 30_000;
    while (!service.baseUrl) {
      const listening = service.entries().find((entry) => /listening on/.test(entry.msg ?? ''));
      if (listening) service.baseUrl = /(http\S+)/.exec(listening.msg as string)![1];
      else if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the service did not start:\n${service.lines.join('\n')}`);
      } else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return service;
  }

  /** The JSON lines logged so far (anything else printed is skipped). */
  entries(): Record<string, any>[] {
    return this.lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, any>];
      } catch {
        return [];
      }
    });
  }

  request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    return httpRequest<T>(this.baseUrl, method, path, options);
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Stops it whatever state it is in (test clean-up). */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}
