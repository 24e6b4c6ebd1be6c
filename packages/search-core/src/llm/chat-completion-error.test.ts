import { describe, expect, it } from 'vitest';
import { ServiceError } from '../http/service-error.js';
import { ChatCompletionError } from './chat-completion-error.js';

const error = (kind: ChatCompletionError['kind'], status?: number) =>
  new ChatCompletionError({ message: 'm', model: 'x', kind, ...(status === undefined ? {} : { status }) });

describe('ChatCompletionError', () => {
  it('is a ServiceError, retryable by the one policy every server call follows', () => {
    expect(error('timeout')).toBeInstanceOf(ServiceError);
    expect(error('timeout').retryable).toBe(true);
    expect(error('connection').retryable).toBe(true);
    expect(error('http', 429)).toMatchObject({ retryable: true, status: 429 });
    expect(error('http', 503)).toMatchObject({ retryable: true, status: 503 });
    expect(error('http', 401)).toMatchObject({ retryable: false, status: 401 });
    expect(error('credentials')).toMatchObject({ retryable: false, status: undefined });
    expect(error('other').retryable).toBe(false);
  });
});
