import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

/** Where a system Chromium may be: `LME_CHROMIUM` first, then Debian's and other distributions' paths. */
export function findChromium(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    environment.LME_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ].filter((path): path is string => typeof path === 'string' && path !== '');
  return candidates.find((path) => existsSync(path));
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type OpenedReport = {
  browser: Browser;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Requests to anything but the file itself (the report must need no network). */
  requests: string[];
  close(): Promise<void>;
};

/**
 * Opens a report file in headless Chromium (playwright-core driving the system executable), with
 * every non-file request refused and recorded, and console errors collected.
 */
export async function openReport(
  htmlPath: string,
  options: { executablePath: string; width?: number; height?: number },
): Promise<OpenedReport> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: options.executablePath, args: CHROMIUM_ARGS });
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1400, height: options.height ?? 1000 },
  });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(htmlPath).href);
  return { browser, page, errors, requests, close: () => browser.close() };
}

/** Saves the overview (top of the page, charts drawn) and one question's page as PNG files. */
export async function screenshotReport(
  page: Page,
  files: { overview: string; question?: { id: string; path: string } },
): Promise<void> {
  await page.evaluate("location.hash = ''");
  await page.waitForSelector('#overview:not([hidden]) #chart-0 svg');
  await page.screenshot({ path: files.overview });
  if (files.question) {
    await page.evaluate(`location.hash = ${JSON.stringify(`#q/${encodeURIComponent(files.question.id)}`)}`);
    await page.waitForSelector('#question-page:not([hidden]) h2');
    await page.screenshot({ path: files.question.path, fullPage: true });
  }
}
