import { useRef, useState, type FormEvent } from 'react';
import type { PhoneValue } from '../../components';
import { paths } from '../../config/paths';
import { passwordLiveKey } from '../../lib/password-rule';
import { safeRedirect } from '../../lib/redirect';
import { useStore } from '../../stores';
import { useSubmitGuard } from './use-submit-guard';
import { validateRegister, type RegisterFormField } from './validation';

type Errors = Partial<Record<RegisterFormField, string>>;

const EMPTY_PHONE: PhoneValue = { phone: '', phoneCountryCode: '', nationalNumber: '', isValid: false, e164: '' };

/**
 * The sign-up form's state: its fields, the phone, each field's message and the form's own. Submitting checks
 * everything (the first problem is shown and its field focused), then registers and goes on to `redirect` (a
 * safe one, else the email verification page).
 */
export function useRegisterForm(redirect: string | null) {
  const { auth, t } = useStore();
  const [form, setForm] = useState({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    confirmPassword: '',
    terms: false,
  });
  const [phone, setPhone] = useState<{ raw: string; country: string | undefined; value: PhoneValue }>({
    raw: '',
    country: undefined,
    value: EMPTY_PHONE,
  });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const guard = useSubmitGuard();
  const refs = useRef<Partial<Record<RegisterFormField, HTMLInputElement | null>>>({});

  // Editing a field clears its message; the next submit checks everything again. A password over the limit
  // is said at once (a password manager's suggestion arrives whole and unseen).
  const set = (field: keyof typeof form) => (value: string | boolean) => {
    setForm((f) => ({ ...f, [field]: value }));
    const live = field === 'password' && typeof value === 'string' ? passwordLiveKey(value) : null;
    setErrors((e) => (live ? { ...e, password: t(live) } : e[field] ? { ...e, [field]: undefined } : e));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (auth.isLoading || !guard.tryEnter()) return;
    const problem = validateRegister({ ...form, phone: phone.raw, phoneValid: phone.value.isValid });
    if (problem) {
      guard.failed();
      const message = t(problem.key);
      setErrors(Object.fromEntries(problem.fields.map((f) => [f, message])));
      refs.current[problem.fields[0]!]?.focus();
      return;
    }
    guard.submitted();
    setErrors({});
    setFormError(null);
    const redirectTo = safeRedirect(redirect, paths.emailVerification);
    const result = await auth.register(
      {
        name: form.firstName.trim(),
        surname: form.lastName.trim(),
        email: form.email.trim(),
        phone: phone.raw.trim(),
        phoneE164: phone.value.e164,
        password: form.password,
        password_confirmation: form.confirmPassword,
      },
      redirectTo,
    );
    if (!result.ok) {
      setErrors(result.fieldErrors);
      // A problem the server pinned on a field (the email is taken) is said once, under that field.
      setFormError(Object.keys(result.fieldErrors).length > 0 ? null : result.message);
    }
  };

  /** The props every text field of the form shares: its focus target, its message, and that it is required. */
  const field = (name: RegisterFormField) => ({
    ref: (el: HTMLInputElement | null) => {
      refs.current[name] = el;
    },
    error: errors[name],
    required: true,
  });
  return { form, set, phone, setPhone, errors, formError, field, refs, onSubmit };
}
