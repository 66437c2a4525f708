/* Encodes an 8-bit 4:2:0 Y4M file as H.264 (libx264, one thread, so the bytes do not depend
 * on the machine's cores) in an MP4 file, through Debian's libavformat and libavcodec: how
 * python/exactvq/tests/data/dist.mp4 (the wheel's FFmpeg input test) was made.
 * Build: cc -O2 tools/wheel/encode_h264.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)
 * Usage: a.out IN.y4m OUT.mp4 CRF */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char* what) {
  fprintf(stderr, "encode_h264: %s\n", what);
  exit(1);
}

static void drain(AVCodecContext* c, AVFormatContext* f, AVStream* s, AVFrame* frame) {
  AVPacket* p = av_packet_alloc();
  if (avcodec_send_frame(c, frame) < 0) die("send_frame");
  while (avcodec_receive_packet(c, p) == 0) {
    p->duration = 1;  /* one frame: else the MP4's edit list ends before the last frame */
    av_packet_rescale_ts(p, c->time_base, s->time_base);
    p->stream_index = s->index;
    if (av_interleaved_write_frame(f, p) < 0) die("write_frame");
  }
  av_packet_free(&p);
}

int main(int argc, char** argv) {
  if (argc != 4) die("usage: IN.y4m OUT.mp4 CRF");
  FILE* in = fopen(argv[1], "rb");
  if (!in) die("cannot open the input");
  char line[256];
  if (!fgets(line, sizeof line, in) || strncmp(line, "YUV4MPEG2 ", 10)) die("not Y4M");
  int w = 0, h = 0;
  for (char* t = strtok(line + 10, " \n"); t; t = strtok(NULL, " \n")) {
    if (t[0] == 'W') w = atoi(t + 1);
    if (t[0] == 'H') h = atoi(t + 1);
  }
  if (w <= 0 || h <= 0) die("no size in the Y4M header");
  const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
  if (!codec) die("no libx264");
  AVFormatContext* f = NULL;
  if (avformat_alloc_output_context2(&f, NULL, "mp4", argv[2]) < 0) die("mp4 muxer");
  AVStream* s = avformat_new_stream(f, NULL);
  AVCodecContext* c = avcodec_alloc_context3(codec);
  c->width = w, c->height = h, c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->time_base = (AVRational){1, 25}, c->framerate = (AVRational){25, 1};
  c->thread_count = 1;
  if (f->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  av_opt_set(c->priv_data, "crf", argv[3], 0);
  av_opt_set(c->priv_data, "preset", "medium", 0);
  if (avcodec_open2(c, codec, NULL) < 0) die("open libx264");
  avcodec_parameters_from_context(s->codecpar, c);
  s->time_base = c->time_base;
  if (avio_open(&f->pb, argv[2], AVIO_FLAG_WRITE) < 0) die("cannot write the output");
  if (avformat_write_header(f, NULL) < 0) die("write_header");
  AVFrame* frame = av_frame_alloc();
  frame->width = w, frame->height = h, frame->format = c->pix_fmt;
  if (av_frame_get_buffer(frame, 0) < 0) die("frame");
  for (int64_t n = 0; fgets(line, sizeof line, in); ++n) {
    if (strncmp(line, "FRAME", 5)) die("no FRAME line");
    if (av_frame_make_writable(frame) < 0) die("writable");
    for (int p = 0; p < 3; ++p) {
      const int pw = p ? (w + 1) / 2 : w, ph = p ? (h + 1) / 2 : h;
      for (int y = 0; y < ph; ++y)
        if (fread(frame->data[p] + (size_t)y * frame->linesize[p], 1, pw, in) != (size_t)pw)
          die("short frame");
    }
    frame->pts = n;
    drain(c, f, s, frame);
  }
  drain(c, f, s, NULL);
  av_write_trailer(f);
  avio_closep(&f->pb);
  av_frame_free(&frame);
  avcodec_free_context(&c);
  avformat_free_context(f);
  fclose(in);
  return 0;
}
