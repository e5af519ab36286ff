import { describe, expect, it } from 'vitest';
import { fillPath } from './path';

/** Clients (renderer, IPC) build request URLs from an operation's path template. */
describe('filling a path template', () => {
  it('each :name is replaced by its value, the rest of the template kept', () => {
    expect(
      fillPath('/v1/workspaces/:workspaceId/clusters/:clusterId/events', {
        clusterId: 'c1',
        workspaceId: 'ws-a',
      }),
    ).toBe('/v1/workspaces/ws-a/clusters/c1/events');
  });

  it('a name is every letter after the colon, up to the next other character', () => {
    expect(fillPath('/a/:resourceName.json', { resourceName: 'web', r: 'x' })).toBe('/a/web.json');
    expect(fillPath('/:a-:b', { a: '1', b: '2' })).toBe('/1-2');
  });

  it('values are percent-encoded, so a value cannot add path segments or a query', () => {
    expect(fillPath('/v1/snapshots/:snapshotId', { snapshotId: 'a/b?c=d e#f' })).toBe(
      '/v1/snapshots/a%2Fb%3Fc%3Dd%20e%23f',
    );
  });

  it('a template without parameters is returned as it is', () => {
    expect(fillPath('/v1/health', { unused: 'x' })).toBe('/v1/health');
  });

  it('a parameter without a value is an error naming it', () => {
    expect(() => fillPath('/v1/workspaces/:workspaceId/clusters/:clusterId', { workspaceId: 'ws' })).toThrow(
      /clusterId/,
    );
  });

  it('an empty value still fills its parameter', () => {
    expect(fillPath('/x/:name/y', { name: '' })).toBe('/x//y');
  });
});
