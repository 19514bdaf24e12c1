"""The voice: sentences put into words a child understands (words.py) and the speaker that says
them with espeak-ng (speaker.py)."""
