import { spawnSync } from 'node:child_process';

/** How a bridge process is kept off the network, as `lme bridges list` and config.json say. */
export type BridgeIsolation = {
  /** Run the bridge in a new network namespace (`unshare -rn`): the kernel gives it no network. */
  namespace: boolean;
  /** One sentence: what holds the bridge off the network here. */
  description: string;
};

let probed: BridgeIsolation | undefined;

/**
 * Whether this machine lets an unprivileged process make a network namespace (`unshare -rn`, util-linux:
 * a user namespace owning a network one with no interface up). Where it does, each bridge runs in one
 * and lme reaches it through a unix socket; where it does not (no user namespaces, a container
 * forbidding them, not Linux), the Python socket guard alone holds it, with the limits
 * docs/bridges.md lists. `LME_BRIDGE_NETNS=0` turns the namespace off. Probed once per process.
 */
export function bridgeIsolation(environment: NodeJS.ProcessEnv = process.env): BridgeIsolation {
  if (environment.LME_BRIDGE_NETNS === '0')
    return guardOnly('LME_BRIDGE_NETNS=0 turned the network namespace off');
  if (probed) return probed;
  const probe = spawnSync('unshare', ['-rn', 'true'], { encoding: 'utf8', timeout: 10_000 });
  probed =
    probe.status === 0
      ? {
          namespace: true,
          description:
            'a network namespace of its own (unshare -rn: no network at all), reached over a unix socket, and the Python socket guard',
        }
      : guardOnly(
          `unshare -rn failed here: ${probe.error?.message ?? (probe.stderr.trim().split('\n')[0] || `exit code ${probe.status}`)}`,
        );
  return probed;
}

function guardOnly(why: string): BridgeIsolation {
  return {
    namespace: false,
    description: `the Python socket guard only (${why}); a C extension's own network calls are not seen`,
  };
}
