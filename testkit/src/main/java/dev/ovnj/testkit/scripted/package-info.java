/** A scriptable fake OVSDB server for protocol edge cases a real server never produces. */
package dev.ovnj.testkit.scripted;
