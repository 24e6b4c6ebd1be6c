import { isRetryableStatus, ServiceError } from '../http/service-error.js';

/**
 * Why a completion failed, as one sentence that names the model and never a secret. The OpenAI SDK
 * has already made its own retries; `retryable` says whether a later attempt could still succeed
 * (a timeout, a dropped connection, or a status of the one retry policy), as for every
 * `ServiceError`.
 */
export class ChatCompletionError extends ServiceError {
  override readonly name = 'ChatCompletionError';
  readonly model: string;
  readonly kind: 'http' | 'timeout' | 'connection' | 'credentials' | 'other';

  constructor(options: {
    message: string;
    model: string;
    kind: ChatCompletionError['kind'];
    status?: number;
  }) {
    super(options.message, {
      retryable:
        options.kind === 'timeout' ||
        options.kind === 'connection' ||
        (options.kind === 'http' && options.status !== undefined && isRetryableStatus(options.status)),
      status: options.status,
    });
    this.model = options.model;
    this.kind = options.kind;
  }
}
