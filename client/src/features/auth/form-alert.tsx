/**
 * A message about the whole form rather than one field (a refused sign-in, a disabled registration, an expired
 * link), announced by screen readers when it appears; nothing when there is no message.
 */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-alert" role="alert">
      {message}
    </p>
  );
}
