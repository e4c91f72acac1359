export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small fetch wrapper: JSON in, parsed JSON (or text) out, bearer token attached. */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    };
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, headers: response.headers, body: type.includes('json') && text ? JSON.parse(text) : text };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }

  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers);
  }

  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  graphql<T = any>(query: string, variables: Record<string, unknown> = {}) {
    return this.request<T>('POST', '/graphql', { query, variables });
  }
}
