// The playground follows a long-running task by itself: while the answer shows a task still
// working, the "Check progress" form is sent every second in the background and the answer
// replaced by what comes back, until the task ends. Without this script the button does it.
const pollMs = 1000;

function follow() {
  const form = document.getElementById('task-status');
  if (!form) return;
  setTimeout(async () => {
    try {
      // Not form.action: the form's hidden field named "action" shadows it.
      const res = await fetch(form.getAttribute('action'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(new FormData(form)),
      });
      const next = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('result');
      const current = document.getElementById('result');
      if (next && current) current.replaceWith(next);
    } catch {
      // A lost answer: the next check tries again.
    }
    follow();
  }, pollMs);
}

follow();
