// The typed client: every call goes through openapi-fetch with the paths and schemas
// generated from the OpenAPI document (openapi-typescript), as any third party would.
import createClient from "openapi-fetch";
import type { components, paths } from "./api";
import { lang } from "./i18n";

export type Schemas = components["schemas"];
export type GameView = Schemas["GameView"];
export type Action = Schemas["Action"];
export type GameEvent = Schemas["Event"];
export type GameType = Schemas["GameType"];

// The page is served by the API itself (at /play/), so the API is this origin.
// What the server says about a game comes in the page's language.
export const api = createClient<paths>({ baseUrl: location.origin, headers: { "Accept-Language": lang } });

export function bearer(token: string | null | undefined): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** An answer that is not a success: the error body's message, as the API words it. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export function failure(error: unknown, response: Response): ApiFailure {
  const body = (error ?? {}) as Partial<Schemas["Error"]>;
  return new ApiFailure(response.status, body.code ?? "error",
                        body.message ?? `${response.status} ${response.statusText}`);
}

/** The data of an answer, or an ApiFailure thrown with the error body's message. */
export function unwrap<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw failure(answer.error, answer.response);
  return answer.data;
}
