/**
 * Run in the page: fetch passes /api/sleep/preview's lines on one by one, holding them after the first phase line
 * until `window.__releasePreview()`; `window.__realFetch` is the original.
 */
export const HOLD_PREVIEW_AFTER_FIRST_PHASE = `(() => {
  const real = window.__realFetch ?? window.fetch.bind(window);
  window.__realFetch = real;
  const gate = new Promise((resolve) => { window.__releasePreview = resolve; });
  window.fetch = async (input, init) => {
    const res = await real(input, init);
    if (!String(input).includes('/api/sleep/preview')) return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = '';
    let passed = 0;
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          if (pending) controller.enqueue(encoder.encode(pending));
          controller.close();
          return;
        }
        pending += decoder.decode(value, { stream: true });
        let end;
        while ((end = pending.indexOf('\\n')) >= 0) {
          const line = pending.slice(0, end + 1);
          pending = pending.slice(end + 1);
          passed += 1;
          if (passed === 3) await gate;
          controller.enqueue(encoder.encode(line));
        }
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
})()`;
