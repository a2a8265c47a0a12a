/** Phone and e-mail links of the site configuration (Help and Imprint). */

export function PhoneLink({ phone }: { readonly phone: string }) {
  return <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>;
}

export function EmailLink({ email }: { readonly email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}
