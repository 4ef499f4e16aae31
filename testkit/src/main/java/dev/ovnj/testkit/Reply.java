package dev.ovnj.testkit;

import java.util.Optional;

/**
 * What one request from a {@link Host} got: the name of the {@link EchoServer} that answered, a
 * refusal (TCP RST or ICMP port unreachable), a timeout, or another error.
 *
 * @param outcome what happened
 * @param detail the answering server's name, or the error's description; empty otherwise
 * @param millis how long it took, from the first packet to the outcome
 */
public record Reply(Outcome outcome, String detail, long millis) {
    /** What happened to a request. */
    public enum Outcome {
        /** An echo server answered with its name. */
        ANSWERED,
        /** Refused at once: a TCP RST, or for UDP an ICMP port unreachable. */
        REFUSED,
        /** Nothing came back within the timeout. */
        TIMEOUT,
        /** Another error, e.g. no route to host. */
        ERROR
    }

    /**
     * Whether a server answered.
     *
     * @return true for {@link Outcome#ANSWERED}
     */
    public boolean answered() {
        return outcome == Outcome.ANSWERED;
    }

    /**
     * The name of the server that answered.
     *
     * @return the name, empty unless answered
     */
    public Optional<String> server() {
        return answered() ? Optional.of(detail) : Optional.empty();
    }

    /**
     * Parses one result line of the traffic agent: {@code ok NAME MS}, {@code refused MS},
     * {@code timeout MS} or {@code error WHY MS}.
     *
     * @param line the line
     * @return the reply
     */
    static Reply parse(String line) {
        String[] w = line.trim().split(" ");
        try {
            return switch (w[0]) {
                case "ok" -> new Reply(Outcome.ANSWERED, w[1], Long.parseLong(w[2]));
                case "refused" -> new Reply(Outcome.REFUSED, "", Long.parseLong(w[1]));
                case "timeout" -> new Reply(Outcome.TIMEOUT, "", Long.parseLong(w[1]));
                case "error" -> new Reply(Outcome.ERROR, w[1], Long.parseLong(w[2]));
                default -> throw new TestkitException("traffic agent printed an unknown result: " + line);
            };
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new TestkitException("traffic agent printed a malformed result: " + line, e);
        }
    }

    @Override
    public String toString() {
        return switch (outcome) {
            case ANSWERED -> "answered by " + detail + " in " + millis + " ms";
            case REFUSED -> "refused in " + millis + " ms";
            case TIMEOUT -> "timed out after " + millis + " ms";
            case ERROR -> "failed (" + detail + ") after " + millis + " ms";
        };
    }
}
