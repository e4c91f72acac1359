/** The shape of one validation problem; core/errors.ts turns a list into a ValidationError. */
export interface FieldErrorLike {
  path: string;
  code: string;
  message: string;
}
