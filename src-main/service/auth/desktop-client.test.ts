import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { desktopClientInfo } from './desktop-client';

/** How the desktop window's own session describes its operating system. */

const os = (platform: NodeJS.Platform, osRelease: string, osReleaseFile?: string) =>
  desktopClientInfo({
    appVersion: '1.2.3',
    platform,
    osRelease,
    ...(osReleaseFile !== undefined ? { osReleaseFile } : {}),
  }).os;

it('Darwin 20 to 24 are macOS 11 to 15, older Darwins macOS 10.x, Darwin 25 on macOS 26 on', () => {
  expect(os('darwin', '19.6.0')).toEqual({ name: 'macOS', version: '10.15' });
  expect(os('darwin', '20.1.0')).toEqual({ name: 'macOS', version: '11' });
  expect(os('darwin', '24.0.0')).toEqual({ name: 'macOS', version: '15' });
  expect(os('darwin', '25.0.0')).toEqual({ name: 'macOS', version: '26' });
});

it('Windows NT 10.0 is Windows 11 from build 22000 on, Windows 10 before; other NT versions stay as they are', () => {
  expect(os('win32', '10.0.19045')).toEqual({ name: 'Windows', version: '10' });
  expect(os('win32', '10.0.22000')).toEqual({ name: 'Windows', version: '11' });
  expect(os('win32', '10.0.26100')).toEqual({ name: 'Windows', version: '11' });
  expect(os('win32', '10.0')).toEqual({ name: 'Windows', version: '10' });
  expect(os('win32', '6.1.7601')).toEqual({ name: 'Windows', version: '6.1.7601' });
  expect(os('win32', '6.0.6002')).toEqual({ name: 'Windows', version: '6.0.6002' });
  expect(os('win32', '10.1.22000')).toEqual({ name: 'Windows', version: '10.1.22000' });
});

it('on Linux the distribution comes from os-release, quoted or not, and the kernel when it names none', () => {
  const file = 'ID=ubuntu\nNAME="Ubuntu"\nPRETTY_NAME="Ubuntu 24.04 LTS"\nVERSION_ID="24.04"\n';
  expect(os('linux', '6.8.0', file)).toEqual({ name: 'Ubuntu', version: '24.04' });
  expect(os('linux', '6.8.0', 'NAME=Arch Linux\nID=arch\n')).toEqual({ name: 'Arch Linux', version: null });
  expect(os('linux', '6.8.0', 'ID=mystery\n')).toEqual({ name: 'Linux', version: '6.8.0' });
});

it.skipIf(!existsSync('/etc/os-release'))(
  "on Linux without a given os-release the system's /etc/os-release is read",
  () => {
    expect(os('linux', '6.8.0')).toEqual(os('linux', '6.8.0', readFileSync('/etc/os-release', 'utf8')));
  },
);

it('another platform is named as Node names it, with its kernel release, and os-release is not consulted', () => {
  expect(os('freebsd', '14.1-RELEASE', 'NAME="Ubuntu"\n')).toEqual({
    name: 'freebsd',
    version: '14.1-RELEASE',
  });
});
