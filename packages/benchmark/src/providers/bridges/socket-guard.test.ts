import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRIDGE_SOURCE_DIR } from './bridge-catalog.js';

// The guard every bridge installs before importing its library, exercised with the system Python
// (standard library only): beyond loopback, connections and name lookups are refused and recorded.
const PROGRAM = `
import json, socket, sys
sys.path.insert(0, ${JSON.stringify(BRIDGE_SOURCE_DIR)})
import protocol_server
protocol_server.install_socket_guard()
outcomes = {}
def attempt(label, action):
    try:
        action()
        outcomes[label] = "allowed"
    except ConnectionRefusedError:
        outcomes[label] = "refused"
    except socket.gaierror:
        outcomes[label] = "refused"
    except OSError as error:
        outcomes[label] = "allowed" if error.errno == 111 else type(error).__name__
server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(1)
attempt("loopback", lambda: socket.create_connection(("127.0.0.1", server.getsockname()[1]), timeout=2).close())
attempt("localhost", lambda: socket.getaddrinfo("localhost", 80))
attempt("address", lambda: socket.create_connection(("10.255.255.1", 443), timeout=2))
attempt("name", lambda: socket.create_connection(("telemetry.example.com", 443), timeout=2))
outcomes["connect_ex"] = "refused" if socket.socket().connect_ex(("192.0.2.7", 80)) == 111 else "allowed"
import _socket, ctypes, os, subprocess
def denied(label, action):
    try:
        action()
        outcomes[label] = "allowed"
    except (ConnectionRefusedError, socket.gaierror, PermissionError) as error:
        outcomes[label] = type(error).__name__
    except OSError as error:
        outcomes[label] = "allowed" if error.errno in (101, 111) else type(error).__name__
udp = lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
denied("gethostbyname", lambda: socket.gethostbyname("gethostbyname.example"))
denied("gethostbyname_ex", lambda: socket.gethostbyname_ex("ex.example"))
denied("gethostbyaddr", lambda: socket.gethostbyaddr("192.0.2.8"))
denied("udp sendto", lambda: udp().sendto(b"x", ("192.0.2.9", 53)))
denied("udp sendmsg", lambda: udp().sendmsg([b"x"], [], 0, ("192.0.2.10", 53)))
denied("tcp fast open", lambda: socket.socket().sendto(b"x", socket.MSG_FASTOPEN, ("192.0.2.11", 80)))
denied("_socket connect", lambda: _socket.socket().connect(("192.0.2.12", 80)))
denied("ctypes connect", lambda: ctypes.CDLL(None).connect)
denied("subprocess", lambda: subprocess.run(["curl", "http://192.0.2.13/"]))
denied("os.system", lambda: os.system("true"))
denied("loopback udp", lambda: udp().sendto(b"x", ("127.0.0.1", server.getsockname()[1])))
print(json.dumps({"outcomes": outcomes, "refused": protocol_server.REFUSED}))
`;

describe("the bridges' socket guard", () => {
  it('lets loopback through and refuses and records every address, name and program beyond it, by every Python route', () => {
    const result = spawnSync('python3', ['-c', PROGRAM], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    const { outcomes, refused } = JSON.parse(result.stdout) as {
      outcomes: Record<string, string>;
      refused: string[];
    };
    expect(outcomes).toEqual({
      loopback: 'allowed',
      localhost: 'allowed',
      address: 'refused',
      name: 'refused',
      connect_ex: 'refused',
      gethostbyname: 'gaierror',
      gethostbyname_ex: 'gaierror',
      gethostbyaddr: 'gaierror',
      'udp sendto': 'ConnectionRefusedError',
      'udp sendmsg': 'ConnectionRefusedError',
      'tcp fast open': 'ConnectionRefusedError',
      '_socket connect': 'ConnectionRefusedError',
      'ctypes connect': 'PermissionError',
      subprocess: 'PermissionError',
      'os.system': 'PermissionError',
      'loopback udp': 'allowed',
    });
    expect(refused.slice(0, 3)).toEqual(['10.255.255.1', 'telemetry.example.com', '192.0.2.7']);
    expect(refused.slice(3, 10)).toEqual([
      'gethostbyname.example',
      'ex.example',
      '192.0.2.8',
      '192.0.2.9',
      '192.0.2.10',
      '192.0.2.11',
      '192.0.2.12',
    ]);
    expect(result.stderr).toContain('lme-bridge: refused a name lookup of telemetry.example.com');
    expect(result.stderr).toContain('lme-bridge: refused a connection to 192.0.2.7');
  });

  it('is the first thing each bridge does, before its library is imported', async () => {
    const { readFile } = await import('node:fs/promises');
    for (const [script, library] of [
      ['mem0_bridge.py', 'import mem0'],
      ['mempalace_bridge.py', 'from chromadb'],
    ] as const) {
      const text = await readFile(join(BRIDGE_SOURCE_DIR, script), 'utf8');
      const guard = text.indexOf('protocol_server.install_socket_guard()');
      expect(guard, script).toBeGreaterThan(0);
      expect(text.indexOf(library), script).toBeGreaterThan(guard);
    }
  });
});
