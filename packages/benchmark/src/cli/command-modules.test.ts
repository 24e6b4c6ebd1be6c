import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, takesPlugins } from './command-modules.js';

describe('command modules', () => {
  it('mark as taking run options exactly the commands built with --plugin, so each loads its plugins', async () => {
    for (const [name, module] of Object.entries(COMMAND_MODULES)) {
      const command = await module.load();
      expect(command.name(), name).toBe(name);
      expect(takesPlugins(command), name).toBe(module.runOptions === true);
    }
  });
});
