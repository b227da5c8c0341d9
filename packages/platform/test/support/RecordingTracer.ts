/** A tracer that keeps every span it is asked for, to assert on names, parents and exits. */
import { Tracer } from "effect"

export const recording = (): { readonly spans: Array<Tracer.NativeSpan>; readonly tracer: Tracer.Tracer } => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
}
