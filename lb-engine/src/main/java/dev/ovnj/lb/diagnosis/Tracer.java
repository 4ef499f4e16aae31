package dev.ovnj.lb.diagnosis;

import java.util.List;
import java.util.Optional;

/**
 * Runs a packet through the logical pipeline, as {@code ovn-trace} does. The diagnosis uses it for
 * the {@code trace-mismatch} check and {@link PathCheck} for a client's packets to a VIP;
 * {@link OvnTrace} runs the real tool.
 */
public interface Tracer {

    /**
     * Why tracing cannot run here (e.g. {@code ovn-trace} is not installed), or empty when it can.
     *
     * @return the reason, or empty
     */
    Optional<String> unavailable();

    /**
     * Traces one packet.
     *
     * @param datapath the logical router or switch the packet enters
     * @param microflow the packet in {@code ovn-trace} syntax
     * @return {@code ovn-trace --summary} output
     * @throws TraceException when the trace could not be run
     */
    String trace(String datapath, String microflow);

    /**
     * Traces one packet table by table ({@code ovn-trace --detailed}), for {@code doctor --from}.
     *
     * @param datapath the logical router or switch the packet enters
     * @param microflow the packet in {@code ovn-trace} syntax
     * @param options more {@code ovn-trace} options: the connection states ({@code --ct=new}) and
     *        the backend the load balancer picks ({@code --lb-dst=IP:PORT})
     * @return {@code ovn-trace --detailed} output
     * @throws TraceException when the trace could not be run
     */
    String traceDetailed(String datapath, String microflow, List<String> options);

    /** A trace that could not be run, with the tool's message. */
    final class TraceException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         *
         * @param message what went wrong
         */
        public TraceException(String message) {
            super(message);
        }
    }
}
