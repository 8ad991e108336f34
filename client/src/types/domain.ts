/** Shapes the client reads from the API. Unknown extra fields are ignored. */

export interface Country {
  id: number;
  title: string;
  iso: string;
}

export interface UserProfile {
  id?: string;
  name: string;
  surname: string;
  email: string;
  phone?: string | null;
  balance?: number | string | null;
  avatarUrl?: string | null;
  created_at?: string | null;
  country?: { id?: number; name?: string; title?: string; iso?: string } | null;
  city?: string | null;
  address?: string | null;
  post_code?: string | null;
  emailVerified?: boolean;
}

export interface Pack {
  id: number | string;
  title: string;
  description?: string | null;
  price: number;
  credits: number;
}

export interface Currency {
  code: string;
  value: number;
  symbol: string;
  default: number;
}

export interface Language {
  id: number;
  code: string;
  title: string;
  default: number;
}

export interface StaticPage {
  id: number;
  slug: string | null;
  title: string;
  content?: string;
  is_terms?: boolean | number;
  is_privacy?: boolean | number;
}

export interface PaymentMethod {
  id: number;
  title: string;
  code: string;
}

export interface Settings {
  requisites?: string | null;
  support_email?: string | null;
  copyright?: string | null;
  company_name?: string | null;
  company_reg_number?: string | null;
  company_address?: string | null;
  is_reg_enabled?: boolean | number;
  min_top_up?: number;
  vat_percent?: number;
  payment_methods?: PaymentMethod[];
  welcome_bonus_tokens?: number;
  points_conversion_rate?: number;
  image_generation_price?: number;
  background_removal_price?: number;
  upscale_price?: number;
  image_generation_sizes?: string[];
  upscale_factors?: number[];
  google_tag?: string | null;
  internal_currency?: { name?: string; image?: string | null } | null;
}
