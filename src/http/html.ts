/** The HTML of the pages people read (sign-in, consent, dashboard): plain forms, no script, readable without CSS. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ap registry</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password],input[type=text]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit;cursor:pointer}.error{color:#a00}code{background:#f3f3f3;padding:.1rem .3rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}</style>
</head><body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

export function signInForm(
  action: string,
  options: { error?: string; email?: string; hidden?: Record<string, string> } = {},
): string {
  const hidden = Object.entries(options.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`;
}
