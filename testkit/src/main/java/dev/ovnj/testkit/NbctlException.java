package dev.ovnj.testkit;

/** An ovn-nbctl command failed; the message holds the command, exit code and stderr. */
public final class NbctlException extends TestkitException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;
    private final String stderr;

    NbctlException(String command, int exitCode, String stderr) {
        super("ovn-nbctl " + command + " exited " + exitCode + ": " + stderr);
        this.exitCode = exitCode;
        this.stderr = stderr;
    }

    /**
     * The exit code of ovn-nbctl.
     *
     * @return the exit code of ovn-nbctl
     */
    public int exitCode() {
        return exitCode;
    }

    /**
     * What ovn-nbctl printed on stderr.
     *
     * @return what ovn-nbctl printed on stderr
     */
    public String stderr() {
        return stderr;
    }
}
