"""The card table: your hand, the trick, the other seats and the decision panels."""
