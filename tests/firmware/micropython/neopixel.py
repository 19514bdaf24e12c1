class NeoPixel:
    def __init__(self, pin, n):
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, v):
        self.buf[i] = v

    def __getitem__(self, i):
        return self.buf[i]

    def write(self):
        self.writes += 1
